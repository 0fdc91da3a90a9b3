import CEventTLS

/// Settings every partgate `SSL_CTX` gets, client or server.
enum TLSContextDefaults {
    /// TLS 1.2 or newer; no TLS-level compression (CRIME); no renegotiation; buffers released while a connection
    /// is idle (`SSL_MODE_RELEASE_BUFFERS`: ~34 KiB less per idle connection).
    static func apply(to context: OpaquePointer) throws(TLSError) {
        guard cshim_SSL_CTX_set_min_proto_version(context, TLS1_2_VERSION) == 1 else {
            throw TLSError.openSSL(.context, "cannot require TLS 1.2 or newer")
        }
        _ = SSL_CTX_set_options(context, cshim_SSL_OP_NO_COMPRESSION() | cshim_SSL_OP_NO_RENEGOTIATION())
        _ = cshim_SSL_CTX_set_mode(context, Int(SSL_MODE_RELEASE_BUFFERS))
    }
}
