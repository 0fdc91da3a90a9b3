import CEventTLS

/// Settings every partgate `SSL_CTX` gets, client or server.
enum TLSContextDefaults {
    /// TLS 1.2 or newer; no TLS-level compression (CRIME); no renegotiation; a connection's record buffers freed
    /// whenever they are empty (`SSL_MODE_RELEASE_BUFFERS`: ~34 KiB less per idle connection).
    ///
    /// Upstream connections release theirs too, although a pooled connection goes idle between every two
    /// requests: keeping them saved 1.6 k instructions per small proxied request, but 64 pooled connections
    /// then wrote into 64 buffers gone cold, where releasing reuses one freshly freed chunk. Under callgrind's
    /// cache model (32 KiB L1, 1 MiB last level) that was 157 against 94 last-level misses per request.
    static func apply(to context: OpaquePointer) throws(TLSError) {
        guard cshim_SSL_CTX_set_min_proto_version(context, TLS1_2_VERSION) == 1 else {
            throw TLSError.openSSL(.context, "cannot require TLS 1.2 or newer")
        }
        _ = SSL_CTX_set_options(context, cshim_SSL_OP_NO_COMPRESSION() | cshim_SSL_OP_NO_RENEGOTIATION())
        _ = cshim_SSL_CTX_set_mode(context, Int(SSL_MODE_RELEASE_BUFFERS))
    }

    /// The TLS 1.3 suites an upstream connection offers, in order: the same three as OpenSSL's default, with
    /// AES-128-GCM first (the order of BoringSSL and Go's crypto/tls; OpenSSL puts AES-256 first). All three are
    /// sound; AES-128 needs 10 AES rounds where AES-256 needs 14, which on this project's bench VM is 13 % less
    /// CPU per byte (`openssl speed -evp`: 2.44 against 2.11 GB/s) for partgate and for the upstream decrypting
    /// it. An upstream that prefers its own order (`SSL_OP_CIPHER_SERVER_PREFERENCE`) still picks.
    static let clientCipherSuites = "TLS_AES_128_GCM_SHA256:TLS_AES_256_GCM_SHA384:TLS_CHACHA20_POLY1305_SHA256"
}
