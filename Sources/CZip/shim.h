#ifndef VOCAB_CZIP_SHIM_H
#define VOCAB_CZIP_SHIM_H

// Debian's libzip, loaded when a zip-based file is first opened or written (dlopen), not at
// every command's start: it brings libbz2 and OpenSSL's libcrypto. Swift calls `vocab_zip_…`,
// each the function of that name found on first use. The header gives the types only.
#include <zip.h>
#include "../CLazyLibrary/lazy_library.h"

VOCAB_LAZY_LIBRARY(libzip, "libzip.so.4")
#define VOCAB_ZIP(ret, name, params, ...) VOCAB_LAZY_FUNCTION(vocab_libzip, ret, name, params, __VA_ARGS__)
#define VOCAB_ZIP_VOID(name, params, ...) VOCAB_LAZY_VOID_FUNCTION(vocab_libzip, name, params, __VA_ARGS__)

VOCAB_ZIP(int, zip_close, (zip_t *_Nonnull archive), archive)
VOCAB_ZIP_VOID(zip_discard, (zip_t *_Nonnull archive), archive)
VOCAB_ZIP_VOID(zip_error_fini, (zip_error_t *_Nonnull error), error)
VOCAB_ZIP_VOID(zip_error_init_with_code, (zip_error_t *_Nonnull error, int code), error, code)
VOCAB_ZIP(const char *_Nonnull, zip_error_strerror, (zip_error_t *_Nonnull error), error)
VOCAB_ZIP(int, zip_fclose, (zip_file_t *_Nonnull file), file)
VOCAB_ZIP(zip_int64_t, zip_file_add, (zip_t *_Nonnull archive, const char *_Nonnull name, zip_source_t *_Nonnull source, zip_flags_t flags),
          archive, name, source, flags)
VOCAB_ZIP(zip_file_t *_Nullable, zip_fopen, (zip_t *_Nonnull archive, const char *_Nonnull name, zip_flags_t flags), archive, name, flags)
VOCAB_ZIP(zip_int64_t, zip_fread, (zip_file_t *_Nonnull file, void *_Nonnull buffer, zip_uint64_t size), file, buffer, size)
VOCAB_ZIP(zip_int64_t, zip_name_locate, (zip_t *_Nonnull archive, const char *_Nonnull name, zip_flags_t flags), archive, name, flags)
VOCAB_ZIP(zip_t *_Nullable, zip_open, (const char *_Nonnull path, int flags, int *_Nullable error), path, flags, error)
VOCAB_ZIP(int, zip_set_file_compression, (zip_t *_Nonnull archive, zip_uint64_t index, zip_int32_t method, zip_uint32_t level),
          archive, index, method, level)
VOCAB_ZIP(zip_source_t *_Nullable, zip_source_file, (zip_t *_Nonnull archive, const char *_Nonnull path, zip_uint64_t start, zip_int64_t length),
          archive, path, start, length)
VOCAB_ZIP_VOID(zip_source_free, (zip_source_t *_Nullable source), source)
VOCAB_ZIP(const char *_Nonnull, zip_strerror, (zip_t *_Nonnull archive), archive)

#endif
