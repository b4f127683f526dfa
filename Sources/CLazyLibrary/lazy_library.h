#ifndef VOCAB_LAZY_LIBRARY_H
#define VOCAB_LAZY_LIBRARY_H

// What every shim of a C library Vocab loads when first used (dlopen) rather than links shares:
// a library opened once, and its functions found by name on their first call. Included by the
// shims of the system-library modules (CLibPQ, CMHD, CZip, CXML2, CZstd, CQREncode); macros
// only, so each module defines its own functions.
#include <dlfcn.h>

/// Defines `vocab_<library>()`, the library `soname` opened once (NULL when it is not
/// installed), and `vocab_<library>_available()`, to check before any other call.
#define VOCAB_LAZY_LIBRARY(library, soname) \
    static inline void *vocab_##library(void) { \
        static void *handle; \
        if (!handle) handle = dlopen(soname, RTLD_NOW | RTLD_LOCAL); \
        return handle; \
    } \
    static inline int vocab_##library##_available(void) { return vocab_##library() != 0; }

/// Defines `vocab_<name>`: the function `name` of `opened()` (a `vocab_<library>`), found on
/// its first call and called with the arguments after `params`.
#define VOCAB_LAZY_FUNCTION(opened, ret, name, params, ...) \
    static inline ret vocab_##name params { \
        static ret (*function) params; \
        if (!function) function = (ret (*) params) dlsym(opened(), #name); \
        return function(__VA_ARGS__); \
    }

/// `VOCAB_LAZY_FUNCTION` for a function that returns nothing.
#define VOCAB_LAZY_VOID_FUNCTION(opened, name, params, ...) \
    static inline void vocab_##name params { \
        static void (*function) params; \
        if (!function) function = (void (*) params) dlsym(opened(), #name); \
        function(__VA_ARGS__); \
    }

/// `VOCAB_LAZY_FUNCTION` for a function that takes no arguments.
#define VOCAB_LAZY_FUNCTION_NO_ARGUMENTS(opened, ret, name) \
    static inline ret vocab_##name(void) { \
        static ret (*function)(void); \
        if (!function) function = (ret (*)(void)) dlsym(opened(), #name); \
        return function(); \
    }

#endif
