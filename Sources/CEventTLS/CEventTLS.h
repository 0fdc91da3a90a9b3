#ifndef CEVENTTLS_H
#define CEVENTTLS_H
/* One Clang module for libevent and OpenSSL.
 * glibc's feature headers must be seen BEFORE any event2/ header: event2/event-config.h defines
 * _GNU_SOURCE, and if it does so first, fd_set differs between modules and a clean build fails
 * ("fd_set ... not present in definition"). */
#include <sys/types.h>
#include <sys/time.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <stdint.h>
#include <malloc.h>
#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/random.h>
#include <sys/eventfd.h>
#include <errno.h>
#include <sys/auxv.h>

#include <openssl/ssl.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/x509v3.h>

#include <event2/event.h>
#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/bufferevent_ssl.h>
#include <event2/listener.h>
#include <event2/thread.h>
#include <event2/util.h>

/* Function-like macros the Swift importer cannot see. */
static inline int cshim_SSL_set_tlsext_host_name(SSL *ssl, const char *name) {
    return (int)SSL_set_tlsext_host_name(ssl, name);
}
static inline int cshim_SSL_CTX_set_min_proto_version(SSL_CTX *ctx, int version) {
    return (int)SSL_CTX_set_min_proto_version(ctx, version);
}
static inline long cshim_SSL_CTX_set_mode(SSL_CTX *ctx, long mode) { return SSL_CTX_set_mode(ctx, mode); }
static inline uint64_t cshim_SSL_OP_NO_COMPRESSION(void) { return SSL_OP_NO_COMPRESSION; }
static inline uint64_t cshim_SSL_OP_NO_RENEGOTIATION(void) { return SSL_OP_NO_RENEGOTIATION; }
static inline long cshim_SSL_CTX_set_session_cache_mode(SSL_CTX *ctx, long mode) {
    return SSL_CTX_set_session_cache_mode(ctx, mode);
}
static inline long cshim_SSL_CTX_sess_set_cache_size(SSL_CTX *ctx, long size) {
    return SSL_CTX_sess_set_cache_size(ctx, size);
}
/* Per-connection version bounds: tests use them to make TLS 1.1-only and TLS 1.2-only clients. */
static inline int cshim_SSL_set_min_proto_version(SSL *ssl, int version) {
    return (int)SSL_set_min_proto_version(ssl, version);
}
static inline int cshim_SSL_set_max_proto_version(SSL *ssl, int version) {
    return (int)SSL_set_max_proto_version(ssl, version);
}
static inline int cshim_SSL_get_min_proto_version(SSL *ssl) { return (int)SSL_get_min_proto_version(ssl); }
/* Adds an intermediate to the context's certificate chain; the context takes its own reference. */
static inline int cshim_SSL_CTX_add1_chain_cert(SSL_CTX *ctx, X509 *x509) {
    return (int)SSL_CTX_add1_chain_cert(ctx, x509);
}
/* Points *data at the BIO's bytes (owned by the BIO) and returns their count. */
static inline long cshim_BIO_get_mem_data(BIO *bio, char **data) { return BIO_get_mem_data(bio, data); }
/* EVP_EC_gen is a macro over the variadic EVP_PKEY_Q_keygen, which Swift cannot call. */
static inline EVP_PKEY *cshim_EVP_EC_gen(const char *curve) { return EVP_EC_gen(curve); }

/* mkostemp is declared only under _GNU_SOURCE, which Swift's Glibc module does not define (glibc's own
 * declaration is identical). O_CLOEXEC at creation: a process spawned by another thread meanwhile must not
 * inherit a spool file. */
extern int mkostemp(char *template_, int flags);
static inline int cshim_mkostemp_cloexec(char *template_) { return mkostemp(template_, O_CLOEXEC); }

/* glibc malloc tuning (malloc.h is not in Swift's Glibc module). */
static inline int cshim_set_malloc_thresholds(int mmap_threshold, int trim_threshold) {
    return mallopt(M_MMAP_THRESHOLD, mmap_threshold) && mallopt(M_TRIM_THRESHOLD, trim_threshold);
}

/* The write event of a socket bufferevent. struct bufferevent (event2/bufferevent_struct.h, public and part
 * of libevent 2.1's ABI) starts with two pointers, then ev_read, then ev_write. Including that header here
 * would make Swift import every bufferevent pointer as a typed pointer instead of an OpaquePointer, so the
 * address is computed; the event's callback argument and flags are checked before it is used. */
static inline struct event *cshim_bufferevent_write_event(struct bufferevent *bev) {
    struct event *event = (struct event *)((char *)bev + 2 * sizeof(void *) + event_get_struct_event_size());
    if (event_get_callback_arg(event) != (void *)bev || !(event_get_events(event) & EV_WRITE)) return NULL;
    return event;
}

/* Runs a socket bufferevent's write callback in this loop turn, as if its socket had reported writable; 0,
 * or -1 if the write event could not be found. libevent 2.1's OpenSSL bufferevent on a socket does not write
 * when bytes are added to its output: it arms the write event and writes once epoll reports the socket
 * writable, which costs two epoll_ctl calls and a loop wake-up per request. Made active, the event's
 * callback writes now (and disarms the event once the output is empty; the epoll changelist folds the
 * arming and disarming into no system call). */
static inline int cshim_bufferevent_write_now(struct bufferevent *bev) {
    struct event *event = cshim_bufferevent_write_event(bev);
    if (event == NULL) return -1;
    /* Added before it is made active: event_add skips an event that is active and not yet added, so the add the
     * bufferevent makes next (its own output callback runs after this one) would be lost. A write that then
     * blocks would leave bytes in the output with no EPOLLOUT registered, and the connection would stall. Only
     * a timeout on the event hid this: libevent re-adds a persistent event that has one before running it. */
    event_add(event, NULL);
    event_active(event, EV_WRITE, 1);
    return 0;
}

/* A nonblocking, close-on-exec eventfd (a loop's cross-thread wake-up), or -1. */
static inline int cshim_wake_eventfd(void) { return eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC); }

/* Bytes waiting in a socket's receive queue (FIONREAD), or -1; ioctl is variadic, which Swift cannot call. */
static inline int cshim_readable_bytes(int fd) {
    int count = 0;
    return ioctl(fd, FIONREAD, &count) == 0 ? count : -1;
}

/* Fills `length` bytes from the kernel CSPRNG (getrandom, retried on EINTR and short reads); 0 or -1. */
static inline int cshim_fill_random(void *buffer, size_t length) {
    size_t offset = 0;
    while (offset < length) {
        ssize_t count = getrandom((char *)buffer + offset, length - offset, 0);
        if (count > 0) {
            offset += (size_t)count;
        } else if (count < 0 && errno == EINTR) {
            continue;
        } else {
            return -1;
        }
    }
    return 0;
}
#endif
