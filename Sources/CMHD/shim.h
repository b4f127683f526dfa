// libmicrohttpd (Debian's libmicrohttpd-dev) needs these before its own header.
#include <sys/types.h>
#include <sys/socket.h>
#include <stdarg.h>
#include <stdint.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <microhttpd.h>
#include "../CLazyLibrary/lazy_library.h"

// libmicrohttpd is loaded when a server first starts (dlopen), not at every command's start:
// with GnuTLS and its own libraries it is 12 of the libraries a command would otherwise map.
// Swift and the functions below call `vocab_MHD_…`, each the function of that name found on
// first use. The header gives the types only (no -lmicrohttpd).

VOCAB_LAZY_LIBRARY(libmhd, "libmicrohttpd.so.12")

/// The function `name` of libmicrohttpd (cached by each caller), for the C-variadic ones below.
#define VOCAB_MHD_FUNCTION(type, name) ((type) dlsym(vocab_libmhd(), name))
#define VOCAB_MHD(ret, name, params, ...) VOCAB_LAZY_FUNCTION(vocab_libmhd, ret, name, params, __VA_ARGS__)

VOCAB_MHD(enum MHD_Result, MHD_add_response_header, (struct MHD_Response *response, const char *header, const char *content),
          response, header, content)
VOCAB_MHD(struct MHD_Response *, MHD_create_response_from_buffer, (size_t size, void *buffer, enum MHD_ResponseMemoryMode mode),
          size, buffer, mode)
VOCAB_MHD(struct MHD_Response *, MHD_create_response_from_buffer_with_free_callback_cls,
          (size_t size, void *buffer, MHD_ContentReaderFreeCallback crfc, void *crfc_cls), size, buffer, crfc, crfc_cls)
VOCAB_MHD(int, MHD_get_connection_values, (struct MHD_Connection *connection, enum MHD_ValueKind kind, MHD_KeyValueIterator iterator,
                                           void *context), connection, kind, iterator, context)
VOCAB_MHD(const char *, MHD_lookup_connection_value, (struct MHD_Connection *connection, enum MHD_ValueKind kind, const char *key),
          connection, kind, key)
VOCAB_MHD(enum MHD_Result, MHD_queue_response, (struct MHD_Connection *connection, unsigned int status, struct MHD_Response *response),
          connection, status, response)
VOCAB_MHD(enum MHD_Result, MHD_is_feature_supported, (enum MHD_FEATURE feature), feature)

VOCAB_MHD(MHD_socket, MHD_quiesce_daemon, (struct MHD_Daemon *daemon), daemon)

VOCAB_LAZY_VOID_FUNCTION(vocab_libmhd, MHD_destroy_response, (struct MHD_Response *response), response)
VOCAB_LAZY_VOID_FUNCTION(vocab_libmhd, MHD_suspend_connection, (struct MHD_Connection *connection), connection)
VOCAB_LAZY_VOID_FUNCTION(vocab_libmhd, MHD_resume_connection, (struct MHD_Connection *connection), connection)
VOCAB_LAZY_VOID_FUNCTION(vocab_libmhd, MHD_stop_daemon, (struct MHD_Daemon *daemon), daemon)

// MHD_start_daemon and MHD_get_daemon_info are C-variadic (Swift does not import them): these
// call them with the options Vocab's server sets (TLS through GnuTLS when a key and a
// certificate, in PEM, are given).

/// Starts a daemon on `address` (port 0: any free one) with a pool of `threads`, at most
/// `connections` at once, each idle for at most `timeout` seconds and given `memory` bytes
/// for its headers and buffers; `done` runs when a request ends (to free its state), `watch`
/// when a connection opens and when it closes.
static inline struct MHD_Daemon *vocab_mhd_start(unsigned int flags, const struct sockaddr *address,
                                                 unsigned int threads, unsigned int connections,
                                                 unsigned int timeout, size_t memory,
                                                 MHD_AccessHandlerCallback handler, void *handler_cls,
                                                 MHD_RequestCompletedCallback done, void *done_cls,
                                                 MHD_NotifyConnectionCallback watch, void *watch_cls,
                                                 const char *tls_key, const char *tls_cert) {
    int tls = tls_key && tls_cert;
    struct MHD_Daemon *(*start)(unsigned int, uint16_t, MHD_AcceptPolicyCallback, void *, MHD_AccessHandlerCallback, void *, ...) =
        VOCAB_MHD_FUNCTION(struct MHD_Daemon *(*)(unsigned int, uint16_t, MHD_AcceptPolicyCallback, void *, MHD_AccessHandlerCallback, void *, ...),
                           "MHD_start_daemon");
    // Without TLS the list ends where the key would start (the rest is never read).
    return start(flags | (tls ? MHD_USE_TLS : 0), 0, NULL, NULL, handler, handler_cls,
                            MHD_OPTION_SOCK_ADDR, address,
                            // No pool with a thread per connection (0): the option is not given
                            // (libmicrohttpd warns of a pool of 0); the limit stands in its place.
                            threads ? MHD_OPTION_THREAD_POOL_SIZE : MHD_OPTION_CONNECTION_LIMIT, threads ? threads : connections,
                            MHD_OPTION_CONNECTION_LIMIT, connections,
                            MHD_OPTION_CONNECTION_TIMEOUT, timeout,
                            MHD_OPTION_CONNECTION_MEMORY_LIMIT, memory,
                            MHD_OPTION_NOTIFY_COMPLETED, done, done_cls,
                            MHD_OPTION_NOTIFY_CONNECTION, watch, watch_cls,
                            tls ? MHD_OPTION_HTTPS_MEM_KEY : MHD_OPTION_END, tls_key,
                            MHD_OPTION_HTTPS_MEM_CERT, tls_cert,
                            MHD_OPTION_END);
}

/// The port the daemon listens on.
static inline uint16_t vocab_mhd_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *(*get)(struct MHD_Daemon *, enum MHD_DaemonInfoType, ...) =
        VOCAB_MHD_FUNCTION(const union MHD_DaemonInfo *(*)(struct MHD_Daemon *, enum MHD_DaemonInfoType, ...), "MHD_get_daemon_info");
    const union MHD_DaemonInfo *info = get(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info ? info->port : 0;
}

/// Whether this libmicrohttpd serves TLS (Debian's does, through GnuTLS).
static inline int vocab_mhd_has_tls(void) {
    return vocab_MHD_is_feature_supported(MHD_FEATURE_TLS) == MHD_YES;
}

/// The client's IPv4 address as text into `out` (at least 16 bytes); 0 when unknown.
static inline int vocab_mhd_client_address(struct MHD_Connection *connection, char *out, size_t size) {
    const union MHD_ConnectionInfo *(*get)(struct MHD_Connection *, enum MHD_ConnectionInfoType, ...) =
        VOCAB_MHD_FUNCTION(const union MHD_ConnectionInfo *(*)(struct MHD_Connection *, enum MHD_ConnectionInfoType, ...),
                           "MHD_get_connection_info");
    const union MHD_ConnectionInfo *info = get(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (!info || !info->client_addr || info->client_addr->sa_family != AF_INET) return 0;
    const struct sockaddr_in *inet = (const struct sockaddr_in *) info->client_addr;
    return inet_ntop(AF_INET, &inet->sin_addr, out, (socklen_t) size) != NULL;
}

/// The connection's socket (to shut it down from another thread: libmicrohttpd then closes it
/// as a peer that hung up; it calls `watch` with the connection closed before it closes the socket).
static inline int vocab_mhd_connection_fd(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *(*get)(struct MHD_Connection *, enum MHD_ConnectionInfoType, ...) =
        VOCAB_MHD_FUNCTION(const union MHD_ConnectionInfo *(*)(struct MHD_Connection *, enum MHD_ConnectionInfoType, ...),
                           "MHD_get_connection_info");
    const union MHD_ConnectionInfo *info = get(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info ? info->connect_fd : -1;
}

/// What `watch` kept for the connection when it opened (NULL if nothing).
static inline void *vocab_mhd_socket_context(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *(*get)(struct MHD_Connection *, enum MHD_ConnectionInfoType, ...) =
        VOCAB_MHD_FUNCTION(const union MHD_ConnectionInfo *(*)(struct MHD_Connection *, enum MHD_ConnectionInfoType, ...),
                           "MHD_get_connection_info");
    const union MHD_ConnectionInfo *info = get(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return info ? info->socket_context : NULL;
}
