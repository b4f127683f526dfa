#ifndef VOCAB_CQRENCODE_SHIM_H
#define VOCAB_CQRENCODE_SHIM_H

// libqrencode (Debian's libqrencode-dev): the QR code `vocab serve` prints for a phone to scan,
// loaded when one is first drawn (dlopen), not at every command's start. Without the library
// there is no code to draw: `vocab_QRcode_encodeString` gives NULL.
#include <qrencode.h>
#include "../CLazyLibrary/lazy_library.h"

VOCAB_LAZY_LIBRARY(libqrencode, "libqrencode.so.4")

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

VOCAB_LAZY_VOID_FUNCTION(vocab_libqrencode, QRcode_free, (QRcode *_Nonnull code), code)

#endif
