#ifndef VOCAB_CCURL_SHIM_H
#define VOCAB_CCURL_SHIM_H

// Debian's libcurl (OpenSSL flavour), for devices that sync with a Vocab server over HTTPS:
// loaded when a device first talks to one (dlopen), not at every command's start. Swift calls
// `vocab_curl_…`; `curl_easy_setopt` and `curl_easy_getinfo` are variadic, which Swift cannot
// call, so each kind of argument has a typed function here. The header gives the types only.
#include <curl/curl.h>
#include "../CLazyLibrary/lazy_library.h"

VOCAB_LAZY_LIBRARY(libcurl, "libcurl.so.4")
#define VOCAB_CURL(ret, name, params, ...) VOCAB_LAZY_FUNCTION(vocab_libcurl, ret, name, params, __VA_ARGS__)
#define VOCAB_CURL_VOID(name, params, ...) VOCAB_LAZY_VOID_FUNCTION(vocab_libcurl, name, params, __VA_ARGS__)
#define VOCAB_CURL_NO_ARGUMENTS(ret, name) VOCAB_LAZY_FUNCTION_NO_ARGUMENTS(vocab_libcurl, ret, name)

VOCAB_CURL(CURLcode, curl_global_init, (long flags), flags)
VOCAB_CURL_NO_ARGUMENTS(CURL *, curl_easy_init)
VOCAB_CURL_VOID(curl_easy_cleanup, (CURL *handle), handle)
VOCAB_CURL(CURLcode, curl_easy_perform, (CURL *handle), handle)
VOCAB_CURL(const char *, curl_easy_strerror, (CURLcode code), code)
VOCAB_CURL(struct curl_slist *, curl_slist_append, (struct curl_slist *list, const char *text), list, text)
VOCAB_CURL_VOID(curl_slist_free_all, (struct curl_slist *list), list)

typedef CURLcode (*vocab_curl_setopt_function)(CURL *, CURLoption, ...);
typedef CURLcode (*vocab_curl_getinfo_function)(CURL *, CURLINFO, ...);

static inline vocab_curl_setopt_function vocab_curl_setopt(void) {
    static vocab_curl_setopt_function function;
    if (!function) function = (vocab_curl_setopt_function)dlsym(vocab_libcurl(), "curl_easy_setopt");
    return function;
}

static inline vocab_curl_getinfo_function vocab_curl_getinfo(void) {
    static vocab_curl_getinfo_function function;
    if (!function) function = (vocab_curl_getinfo_function)dlsym(vocab_libcurl(), "curl_easy_getinfo");
    return function;
}

static inline CURLcode vocab_curl_setopt_long(CURL *handle, CURLoption option, long value) {
    return vocab_curl_setopt()(handle, option, value);
}
static inline CURLcode vocab_curl_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return vocab_curl_setopt()(handle, option, value);
}
static inline CURLcode vocab_curl_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return vocab_curl_setopt()(handle, option, value);
}
static inline CURLcode vocab_curl_setopt_size(CURL *handle, CURLoption option, curl_off_t value) {
    return vocab_curl_setopt()(handle, option, value);
}
typedef size_t (*vocab_curl_data_callback)(char *bytes, size_t size, size_t count, void *context);
static inline CURLcode vocab_curl_setopt_callback(CURL *handle, CURLoption option, vocab_curl_data_callback callback) {
    return vocab_curl_setopt()(handle, option, callback);
}
static inline CURLcode vocab_curl_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return vocab_curl_getinfo()(handle, info, value);
}

#endif
