#ifndef STAYSEARCH_CGD_SHIM_H
#define STAYSEARCH_CGD_SHIM_H
#include <gd.h>
#include <gdfonts.h>

/// gdTrueColorAlpha is a macro; alpha 0 is opaque, 127 transparent.
static inline int staysearch_gd_color(int red, int green, int blue, int alpha) {
    return gdTrueColorAlpha(red, green, blue, alpha);
}
static inline int staysearch_gd_width(gdImagePtr image) { return gdImageSX(image); }
static inline int staysearch_gd_height(gdImagePtr image) { return gdImageSY(image); }
static inline int staysearch_gd_is_truecolor(gdImagePtr image) { return gdImageTrueColor(image); }
#endif
