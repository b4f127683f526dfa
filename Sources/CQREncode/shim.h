#ifndef VOCAB_CQRENCODE_SHIM_H
#define VOCAB_CQRENCODE_SHIM_H

// libqrencode (Debian's libqrencode-dev): the QR code `vocab serve` prints for a phone to scan,
// loaded when one is first drawn (dlopen), not at every command's start. Without the library
// there is no code to draw: `vocab_QRcode_encodeString` gives NULL.
#include <dlfcn.h>
#include <qrencode.h>

/// libqrencode, opened once (NULL when it is not installed).
static inline void *vocab_libqrencode(void) {
    static void *handle;
    if (!handle) handle = dlopen("libqrencode.so.4", RTLD_NOW | RTLD_LOCAL);
    return handle;
}

static inline QRcode *_Nullable vocab_QRcode_encodeString(const char *_Nonnull text, int version, QRecLevel level,
                                                          QRencodeMode hint, int caseSensitive) {
    static QRcode *(*function)(const char *, int, QRecLevel, QRencodeMode, int);
    if (!function) {
        void *library = vocab_libqrencode();
        if (!library) return 0;
        function = (QRcode *(*)(const char *, int, QRecLevel, QRencodeMode, int)) dlsym(library, "QRcode_encodeString");
        if (!function) return 0;
    }
    return function(text, version, level, hint, caseSensitive);
}

static inline void vocab_QRcode_free(QRcode *_Nonnull code) {
    static void (*function)(QRcode *);
    if (!function) function = (void (*)(QRcode *)) dlsym(vocab_libqrencode(), "QRcode_free");
    function(code);
}

#endif
