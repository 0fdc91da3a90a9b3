import CEventTLS

/// The TLS settings of a listener: its certificate and key, TLS 1.2 or newer, HTTP/1.1 by ALPN, a server-side
/// session cache, and optionally required client certificates.
///
/// Owns one `SSL_CTX`, freed in `deinit` (connections made from it hold their own reference, so they may outlive
/// the context object).
///
/// `@unchecked Sendable`: the `SSL_CTX` is fully configured in `init` and never modified afterwards, so any thread
/// may call ``makeSSL()`` (OpenSSL: a factory object may be used concurrently once no longer modified; its session
/// cache is locked internally). One context can serve every worker thread.
public final class TLSServerContext: @unchecked Sendable {
    /// Whether clients must present a certificate.
    public enum ClientAuthentication: Sendable {
        /// No client certificate is requested (the default).
        case none
        /// Clients must present a certificate chaining to these roots; the handshake fails otherwise.
        case required(TLSTrustRoots)
    }

    let context: OpaquePointer

    /// A server context from a certificate chain and key.
    ///
    /// - Parameters:
    ///   - identity: the server certificate chain and key.
    ///   - clientAuthentication: whether client certificates are required (default: not requested).
    ///   - sessionCacheSize: TLS 1.2 sessions kept for resumption (default 20 480; TLS 1.3 uses stateless
    ///     tickets sealed with this context's ticket keys).
    ///   - sessionTimeout: seconds a session or ticket may be resumed (default 300).
    /// - Throws: `TLSError` naming the file or setting at fault, e.g.
    ///   `cannot load certificate /x/y.pem: no start line` or `.keyMismatch`.
    public init(
        identity: TLSIdentity,
        clientAuthentication: ClientAuthentication = .none,
        sessionCacheSize: Int = 20 * 1024,
        sessionTimeout: Int = 300
    ) throws(TLSError) {
        _ = OpenSSLLibrary.initialized
        ERR_clear_error()
        guard let context = SSL_CTX_new(TLS_server_method()) else {
            throw TLSError.openSSL(.context, "cannot create a TLS server context")
        }
        self.context = context  // from here on, a throw runs deinit, which frees the context
        try TLSContextDefaults.apply(to: context)
        SSL_CTX_set_alpn_select_cb(context, selectHTTP1, nil)
        _ = cshim_SSL_CTX_set_session_cache_mode(context, Int(SSL_SESS_CACHE_SERVER))
        _ = cshim_SSL_CTX_sess_set_cache_size(context, max(sessionCacheSize, 1))
        _ = SSL_CTX_set_timeout(context, max(sessionTimeout, 1))
        // Resumption checks that a session was made under the same "session id context"; without one, OpenSSL
        // refuses to resume (and fails handshakes) when client certificates are verified.
        let sessionIDContext = Array("partgate".utf8)
        guard SSL_CTX_set_session_id_context(context, sessionIDContext, UInt32(sessionIDContext.count)) == 1 else {
            throw TLSError.openSSL(.context, "cannot set the session id context")
        }
        try identity.install(in: context)
        if case .required(let roots) = clientAuthentication {
            try roots.install(in: context)
            try roots.announceAsClientCAs(in: context)
            SSL_CTX_set_verify(context, SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT, nil)
        }
    }

    /// A server context from PEM files.
    ///
    /// - Parameters:
    ///   - certificateChainFile: the certificate chain, leaf first.
    ///   - keyFile: the leaf's unencrypted private key.
    /// - Throws: `TLSError` naming the file at fault.
    public convenience init(certificateChainFile: String, keyFile: String) throws(TLSError) {
        try self.init(identity: .files(certificateChain: certificateChainFile, privateKey: keyFile))
    }

    deinit {
        SSL_CTX_free(context)
    }

    /// A new server-side `SSL` for one accepted connection.
    ///
    /// The caller owns the result: hand it to `bufferevent_openssl_socket_new(…, BUFFEREVENT_SSL_ACCEPTING,
    /// BEV_OPT_CLOSE_ON_FREE…)`, which frees it with the bufferevent, or `SSL_free` it.
    ///
    /// - Throws: `.connection` if OpenSSL cannot allocate it.
    public func makeSSL() throws(TLSError) -> OpaquePointer {
        ERR_clear_error()
        guard let ssl = SSL_new(context) else {
            throw TLSError.openSSL(.connection, "cannot create a TLS server connection")
        }
        return ssl
    }
}

/// ALPN: answer `http/1.1` (or `http/1.0`) when the client offers it. A client that offers only other protocols
/// (say, just `h2`) gets the fatal `no_application_protocol` alert (RFC 7301 §3.2), as nginx does; a client that
/// sends no ALPN never reaches this callback and gets HTTP/1.1 by default.
private let selectHTTP1: SSL_CTX_alpn_select_cb_func = { _, out, outLength, offer, offerLength, _ in
    guard let out, let outLength, let offer else { return SSL_TLSEXT_ERR_ALERT_FATAL }
    let list = UnsafeBufferPointer(start: offer, count: Int(offerLength))
    guard let chosen = ALPN.select(from: list) else { return SSL_TLSEXT_ERR_ALERT_FATAL }
    out.pointee = offer + chosen.lowerBound
    outLength.pointee = UInt8(chosen.count)
    return SSL_TLSEXT_ERR_OK
}
