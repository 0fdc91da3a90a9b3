// ProxyEngine: the only module where C types (libevent, OpenSSL) live.
//
// Event loops, listeners, connections, TLS contexts and the body pipeline (issue 3) build on the pure
// modules (HTTP1, Multipart, Policy); OpenSSL also provides the SHA-256 used for part digests.
