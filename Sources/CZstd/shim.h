#ifndef VOCAB_CZSTD_SHIM_H
#define VOCAB_CZSTD_SHIM_H

// Debian's libzstd, loaded when a current Anki package is first read (dlopen), not at every
// command's start. Swift calls `vocab_ZSTD_…`, each the function of that name found on first
// use. The header gives the types only.
#include <dlfcn.h>
#include <zstd.h>

/// libzstd, opened once (NULL when it is not installed).
static inline void *vocab_libzstd(void) {
    static void *handle;
    if (!handle) handle = dlopen("libzstd.so.1", RTLD_NOW | RTLD_LOCAL);
    return handle;
}

/// Whether libzstd could be loaded: check before any other call.
static inline int vocab_libzstd_available(void) { return vocab_libzstd() != 0; }

#define VOCAB_ZSTD(ret, name, params, ...) \
    static inline ret vocab_##name params { \
        static ret (*function) params; \
        if (!function) function = (ret (*) params) dlsym(vocab_libzstd(), #name); \
        return function(__VA_ARGS__); \
    }
#define VOCAB_ZSTD_NO_ARGUMENTS(ret, name) \
    static inline ret vocab_##name(void) { \
        static ret (*function)(void); \
        if (!function) function = (ret (*)(void)) dlsym(vocab_libzstd(), #name); \
        return function(); \
    }

VOCAB_ZSTD_NO_ARGUMENTS(ZSTD_DStream *_Nullable, ZSTD_createDStream)
VOCAB_ZSTD_NO_ARGUMENTS(size_t, ZSTD_DStreamOutSize)
VOCAB_ZSTD(size_t, ZSTD_initDStream, (ZSTD_DStream *_Nonnull stream), stream)
VOCAB_ZSTD(size_t, ZSTD_freeDStream, (ZSTD_DStream *_Nonnull stream), stream)
VOCAB_ZSTD(size_t, ZSTD_decompressStream, (ZSTD_DStream *_Nonnull stream, ZSTD_outBuffer *_Nonnull output, ZSTD_inBuffer *_Nonnull input),
           stream, output, input)
VOCAB_ZSTD(unsigned, ZSTD_isError, (size_t code), code)
VOCAB_ZSTD(const char *_Nonnull, ZSTD_getErrorName, (size_t code), code)

#endif
