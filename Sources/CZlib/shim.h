#ifndef STAYSEARCH_CZLIB_SHIM_H
#define STAYSEARCH_CZLIB_SHIM_H
#include <zlib.h>

/// `inflateInit2` is a macro; this wraps it for Swift. 16 + MAX_WBITS accepts a gzip header.
static inline int staysearch_inflate_init_gzip(z_stream *stream) {
    return inflateInit2(stream, 16 + MAX_WBITS);
}

/// `deflateInit2` is a macro; this wraps it for Swift: a gzip header and trailer, at `level`.
static inline int staysearch_deflate_init_gzip(z_stream *stream, int level) {
    return deflateInit2(stream, level, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY);
}
#endif
