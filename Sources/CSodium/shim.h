#ifndef VOCAB_CSODIUM_SHIM_H
#define VOCAB_CSODIUM_SHIM_H

// Debian's libsodium, for the cloud's password verifiers (Argon2id) and the HMAC-SHA-256 that
// checks PostgreSQL's SCRAM verifiers: loaded when a server first checks a password (dlopen),
// not at every command's start. Swift calls `vocab_…`, each the function of that name found on
// first use. The header gives the types only.
#include <sodium.h>
#include "../CLazyLibrary/lazy_library.h"

VOCAB_LAZY_LIBRARY(libsodium, "libsodium.so.23")
#define VOCAB_SODIUM(ret, name, params, ...) VOCAB_LAZY_FUNCTION(vocab_libsodium, ret, name, params, __VA_ARGS__)
#define VOCAB_SODIUM_NO_ARGUMENTS(ret, name) VOCAB_LAZY_FUNCTION_NO_ARGUMENTS(vocab_libsodium, ret, name)

VOCAB_SODIUM_NO_ARGUMENTS(int, sodium_init)
VOCAB_SODIUM(int, crypto_pwhash_str, (char *out, const char *password, unsigned long long length,
                                      unsigned long long opslimit, size_t memlimit),
             out, password, length, opslimit, memlimit)
VOCAB_SODIUM(int, crypto_pwhash_str_verify, (const char *stored, const char *password, unsigned long long length),
             stored, password, length)
VOCAB_SODIUM(int, crypto_pwhash_str_needs_rehash, (const char *stored, unsigned long long opslimit, size_t memlimit),
             stored, opslimit, memlimit)
VOCAB_SODIUM(int, crypto_auth_hmacsha256_init, (crypto_auth_hmacsha256_state *state, const unsigned char *key, size_t length),
             state, key, length)
VOCAB_SODIUM(int, crypto_auth_hmacsha256_update, (crypto_auth_hmacsha256_state *state, const unsigned char *bytes,
                                                  unsigned long long length),
             state, bytes, length)
VOCAB_SODIUM(int, crypto_auth_hmacsha256_final, (crypto_auth_hmacsha256_state *state, unsigned char *out), state, out)
VOCAB_SODIUM(int, crypto_hash_sha256, (unsigned char *out, const unsigned char *bytes, unsigned long long length),
             out, bytes, length)
VOCAB_SODIUM(int, sodium_memcmp, (const void *a, const void *b, size_t length), a, b, length)

// The limits Vocab hashes with (libsodium's "interactive" Argon2id: 2 passes, 64 MiB), as
// values Swift can read (the macros call functions).
static const unsigned long long vocab_pwhash_opslimit = crypto_pwhash_argon2id_OPSLIMIT_INTERACTIVE;
static const size_t vocab_pwhash_memlimit = crypto_pwhash_argon2id_MEMLIMIT_INTERACTIVE;
static const size_t vocab_pwhash_strbytes = crypto_pwhash_STRBYTES;

#endif
