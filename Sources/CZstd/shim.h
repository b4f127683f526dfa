#ifndef VOCAB_CZSTD_SHIM_H
#define VOCAB_CZSTD_SHIM_H

// Debian's libzstd, loaded when a current Anki package is first read or an Anki app first syncs
// (dlopen), not at every command's start. Swift calls `vocab_ZSTD_…`, each the function of that name found on first
// use. The header gives the types only.
#include <zstd.h>
#include "../CLazyLibrary/lazy_library.h"

VOCAB_LAZY_LIBRARY(libzstd, "libzstd.so.1")
#define VOCAB_ZSTD(ret, name, params, ...) VOCAB_LAZY_FUNCTION(vocab_libzstd, ret, name, params, __VA_ARGS__)
#define VOCAB_ZSTD_NO_ARGUMENTS(ret, name) VOCAB_LAZY_FUNCTION_NO_ARGUMENTS(vocab_libzstd, ret, name)

VOCAB_ZSTD_NO_ARGUMENTS(ZSTD_DStream *_Nullable, ZSTD_createDStream)
VOCAB_ZSTD_NO_ARGUMENTS(size_t, ZSTD_DStreamOutSize)
VOCAB_ZSTD(size_t, ZSTD_initDStream, (ZSTD_DStream *_Nonnull stream), stream)
VOCAB_ZSTD(size_t, ZSTD_freeDStream, (ZSTD_DStream *_Nonnull stream), stream)
VOCAB_ZSTD(size_t, ZSTD_decompressStream, (ZSTD_DStream *_Nonnull stream, ZSTD_outBuffer *_Nonnull output, ZSTD_inBuffer *_Nonnull input),
           stream, output, input)
VOCAB_ZSTD(size_t, ZSTD_compressBound, (size_t size), size)
VOCAB_ZSTD(size_t, ZSTD_compress, (void *_Nonnull destination, size_t capacity, const void *_Nonnull source, size_t size, int level),
           destination, capacity, source, size, level)
VOCAB_ZSTD_NO_ARGUMENTS(ZSTD_CCtx *_Nullable, ZSTD_createCCtx)
VOCAB_ZSTD(size_t, ZSTD_freeCCtx, (ZSTD_CCtx *_Nonnull context), context)
VOCAB_ZSTD(size_t, ZSTD_CCtx_setParameter, (ZSTD_CCtx *_Nonnull context, ZSTD_cParameter parameter, int value), context, parameter, value)
VOCAB_ZSTD(size_t, ZSTD_CCtx_setPledgedSrcSize, (ZSTD_CCtx *_Nonnull context, unsigned long long size), context, size)
VOCAB_ZSTD(size_t, ZSTD_compressStream2,
           (ZSTD_CCtx *_Nonnull context, ZSTD_outBuffer *_Nonnull output, ZSTD_inBuffer *_Nonnull input, ZSTD_EndDirective end),
           context, output, input, end)
VOCAB_ZSTD(unsigned, ZSTD_isError, (size_t code), code)
VOCAB_ZSTD(const char *_Nonnull, ZSTD_getErrorName, (size_t code), code)

#endif
