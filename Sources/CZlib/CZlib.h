// The OS zlib (Debian: zlib1g-dev), for permessage-deflate (RFC 7692). zlib's init functions are macros that
// pass its version and struct size; Swift cannot call macros with arguments, so these inline shims do.
#ifndef WORDROOMS_CZLIB_H
#define WORDROOMS_CZLIB_H

#include <zlib.h>

/// A raw deflate stream (no zlib header or trailer, RFC 7692 §7.2.1) with a 2^windowBits window.
static inline int czlib_deflate_init_raw(z_streamp stream, int level, int windowBits, int memLevel) {
    return deflateInit2(stream, level, Z_DEFLATED, -windowBits, memLevel, Z_DEFAULT_STRATEGY);
}

/// A raw inflate stream with a 2^windowBits window.
static inline int czlib_inflate_init_raw(z_streamp stream, int windowBits) {
    return inflateInit2(stream, -windowBits);
}

#endif
