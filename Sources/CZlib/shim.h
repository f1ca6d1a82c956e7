#ifndef STAYSEARCH_CZLIB_SHIM_H
#define STAYSEARCH_CZLIB_SHIM_H
#include <zlib.h>

/// `inflateInit2` is a macro; this wraps it for Swift. 16 + MAX_WBITS accepts a gzip header.
static inline int staysearch_inflate_init_gzip(z_stream *stream) {
    return inflateInit2(stream, 16 + MAX_WBITS);
}
#endif
