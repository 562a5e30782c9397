// zlib for Swift: the macros zlib declares its init functions with are not imported into
// Swift, so these wrappers call them for raw deflate streams (no zlib or gzip header), the
// form zip archives store. Provided by Debian's zlib1g-dev (.ci/run installs it).
#ifndef CZLIB_H
#define CZLIB_H

#include <zlib.h>

/// Prepares `stream` to inflate raw deflate data (zip method 8). Returns Z_OK or a zlib error.
static inline int czlib_inflate_init_raw(z_stream *_Nonnull stream) {
    return inflateInit2(stream, -MAX_WBITS);
}

/// Prepares `stream` to deflate into raw deflate data at `level`. Returns Z_OK or a zlib error.
static inline int czlib_deflate_init_raw(z_stream *_Nonnull stream, int level) {
    return deflateInit2(stream, level, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY);
}

#endif
