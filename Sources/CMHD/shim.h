// libmicrohttpd (Debian's libmicrohttpd-dev) needs these before its own header.
#include <sys/types.h>
#include <sys/socket.h>
#include <stdarg.h>
#include <stdint.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <microhttpd.h>

// MHD_start_daemon and MHD_get_daemon_info are C-variadic (Swift does not import them): these
// call them with the options Vocab's server sets (TLS through GnuTLS when a key and a
// certificate, in PEM, are given).

/// Starts a daemon on `address` (port 0: any free one) with a pool of `threads`, at most
/// `connections` at once, each idle for at most `timeout` seconds and given `memory` bytes
/// for its headers and buffers; `done` runs when a request ends (to free its state).
static inline struct MHD_Daemon *vocab_mhd_start(unsigned int flags, const struct sockaddr *address,
                                                 unsigned int threads, unsigned int connections,
                                                 unsigned int timeout, size_t memory,
                                                 MHD_AccessHandlerCallback handler, void *handler_cls,
                                                 MHD_RequestCompletedCallback done, void *done_cls,
                                                 const char *tls_key, const char *tls_cert) {
    int tls = tls_key && tls_cert;
    // Without TLS the list ends where the key would start (the rest is never read).
    return MHD_start_daemon(flags | (tls ? MHD_USE_TLS : 0), 0, NULL, NULL, handler, handler_cls,
                            MHD_OPTION_SOCK_ADDR, address,
                            MHD_OPTION_THREAD_POOL_SIZE, threads,
                            MHD_OPTION_CONNECTION_LIMIT, connections,
                            MHD_OPTION_CONNECTION_TIMEOUT, timeout,
                            MHD_OPTION_CONNECTION_MEMORY_LIMIT, memory,
                            MHD_OPTION_NOTIFY_COMPLETED, done, done_cls,
                            tls ? MHD_OPTION_HTTPS_MEM_KEY : MHD_OPTION_END, tls_key,
                            MHD_OPTION_HTTPS_MEM_CERT, tls_cert,
                            MHD_OPTION_END);
}

/// The port the daemon listens on.
static inline uint16_t vocab_mhd_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info ? info->port : 0;
}

/// Whether this libmicrohttpd serves TLS (Debian's does, through GnuTLS).
static inline int vocab_mhd_has_tls(void) {
    return MHD_is_feature_supported(MHD_FEATURE_TLS) == MHD_YES;
}

/// The client's IPv4 address as text into `out` (at least 16 bytes); 0 when unknown.
static inline int vocab_mhd_client_address(struct MHD_Connection *connection, char *out, size_t size) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (!info || !info->client_addr || info->client_addr->sa_family != AF_INET) return 0;
    const struct sockaddr_in *inet = (const struct sockaddr_in *) info->client_addr;
    return inet_ntop(AF_INET, &inet->sin_addr, out, (socklen_t) size) != NULL;
}
