import CEventTLS

/// Settings every partgate `SSL_CTX` gets, client or server.
enum TLSContextDefaults {
    /// TLS 1.2 or newer; no TLS-level compression (CRIME); no renegotiation.
    /// - Parameter releasingBuffers: whether a connection's record buffers are freed whenever they are empty
    ///   (`SSL_MODE_RELEASE_BUFFERS`: ~34 KiB less per idle connection). On for listeners, where thousands of
    ///   keep-alive clients may sit idle. Off for upstream connections, which the pool bounds
    ///   (`max_idle_connections`) and which go idle between every two requests: freeing and allocating the two
    ///   17 KiB buffers around each request cost 1.6 k instructions, 2 % of a small proxied request.
    static func apply(to context: OpaquePointer, releasingBuffers: Bool) throws(TLSError) {
        guard cshim_SSL_CTX_set_min_proto_version(context, TLS1_2_VERSION) == 1 else {
            throw TLSError.openSSL(.context, "cannot require TLS 1.2 or newer")
        }
        _ = SSL_CTX_set_options(context, cshim_SSL_OP_NO_COMPRESSION() | cshim_SSL_OP_NO_RENEGOTIATION())
        if releasingBuffers {
            _ = cshim_SSL_CTX_set_mode(context, Int(SSL_MODE_RELEASE_BUFFERS))
        }
    }

    /// The TLS 1.3 suites an upstream connection offers, in order: the same three as OpenSSL's default, with
    /// AES-128-GCM first (the order of BoringSSL and Go's crypto/tls; OpenSSL puts AES-256 first). All three are
    /// sound; AES-128 needs 10 AES rounds where AES-256 needs 14, which on this project's bench VM is 13 % less
    /// CPU per byte (`openssl speed -evp`: 2.44 against 2.11 GB/s) for partgate and for the upstream decrypting
    /// it. An upstream that prefers its own order (`SSL_OP_CIPHER_SERVER_PREFERENCE`) still picks.
    static let clientCipherSuites = "TLS_AES_128_GCM_SHA256:TLS_AES_256_GCM_SHA384:TLS_CHACHA20_POLY1305_SHA256"
}
