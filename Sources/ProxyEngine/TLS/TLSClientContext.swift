import CEventTLS

/// The TLS settings partgate uses towards one upstream: which CAs to trust, whether to verify at all, an optional
/// client certificate, TLS 1.2 or newer, ALPN `http/1.1`, and TLS session resumption.
///
/// Owns one `SSL_CTX`, freed in `deinit`, and a session cache (the most recent resumable session per server name).
///
/// Threads: create one context per upstream and share it between all worker threads. The `SSL_CTX` is never
/// modified after `init`, and the session cache is locked (see ``TLSSessionCache``), so ``makeSSL(serverName:)``,
/// ``remember(ssl:serverName:)`` and the automatic capture of new sessions may run on any thread.
/// `@unchecked Sendable` rests on exactly that.
///
/// Session capture is automatic: a new-session callback stores each session as OpenSSL receives it. That matters
/// for TLS 1.3, whose tickets arrive *after* the handshake, whenever the connection next reads (with libevent,
/// inside its read callback). ``remember(ssl:serverName:)`` stores the current session explicitly.
public final class TLSClientContext: @unchecked Sendable {
    let context: OpaquePointer
    private let sessions: TLSSessionCache
    /// Whether certificates and names are verified (false only in tests against throwaway upstreams).
    public let verifiesPeer: Bool

    /// A client context.
    ///
    /// - Parameters:
    ///   - trustRoots: the CAs upstream certificates must chain to (default: the system trust store).
    ///   - verify: **`false` turns off all certificate and name verification**: any certificate, from anyone,
    ///     is accepted, and the connection can be intercepted without trace. Only for tests and throwaway
    ///     setups; never in production. The default, `true`, verifies the chain (`SSL_VERIFY_PEER`) and the
    ///     server name of every connection.
    ///   - identity: a client certificate and key to present when the upstream asks (mutual TLS).
    ///   - maximumCachedSessions: server names whose latest session is kept for resumption (default 64).
    /// - Throws: `TLSError` naming the file at fault (`.trustRoots`, `.certificate`, `.privateKey`,
    ///   `.keyMismatch`).
    public init(
        trustRoots: TLSTrustRoots = .system,
        verify: Bool = true,
        identity: TLSIdentity? = nil,
        maximumCachedSessions: Int = 64
    ) throws(TLSError) {
        _ = OpenSSLLibrary.initialized
        ERR_clear_error()
        guard let context = SSL_CTX_new(TLS_client_method()) else {
            throw TLSError.openSSL(.context, "cannot create a TLS client context")
        }
        self.context = context
        self.sessions = TLSSessionCache(capacity: maximumCachedSessions)
        self.verifiesPeer = verify
        // From here on, a throw runs deinit, which frees the context.
        try TLSContextDefaults.apply(to: context)
        guard SSL_CTX_set_ciphersuites(context, TLSContextDefaults.clientCipherSuites) == 1 else {
            throw TLSError.openSSL(.context, "cannot set the TLS 1.3 cipher suites")
        }
        guard SSL_CTX_set_alpn_protos(context, ALPN.clientOffer, UInt32(ALPN.clientOffer.count)) == 0 else {
            throw TLSError.openSSL(.context, "cannot offer ALPN http/1.1")  // note: 0 means success here
        }
        if verify {
            try trustRoots.install(in: context)
            SSL_CTX_set_verify(context, SSL_VERIFY_PEER, nil)
        } else {
            SSL_CTX_set_verify(context, SSL_VERIFY_NONE, nil)
        }
        if let identity { try identity.install(in: context) }
        // Client-side caching only calls the new-session callback; OpenSSL keeps no client cache of its own.
        _ = cshim_SSL_CTX_set_session_cache_mode(
            context, Int(SSL_SESS_CACHE_CLIENT | SSL_SESS_CACHE_NO_INTERNAL_STORE))
        SSL_CTX_sess_set_new_cb(context, captureSession)
    }

    deinit {
        SSL_CTX_free(context)
    }

    /// A new client-side `SSL` for one upstream connection to `serverName`.
    ///
    /// Sets SNI for a DNS name (never for an IP literal, RFC 6066), the name the certificate must match
    /// (`SSL_set1_host`, wildcards only as a whole left-most label; for an IP literal, the certificate's IP
    /// SANs), and offers the cached session for that name, if any.
    ///
    /// The caller owns the result: hand it to `bufferevent_openssl_socket_new(…, BUFFEREVENT_SSL_CONNECTING,
    /// BEV_OPT_CLOSE_ON_FREE…)`, which frees it with the bufferevent, or `SSL_free` it.
    ///
    /// - Parameter serverName: the upstream's host name or IP literal (`[::1]` and `::1` both work).
    /// - Throws: `.serverName` for a name that is neither; `.connection` if OpenSSL refuses a setting.
    public func makeSSL(serverName: String) throws(TLSError) -> OpaquePointer {
        let name = try TLSServerName(serverName)
        ERR_clear_error()
        guard let ssl = SSL_new(context) else {
            throw TLSError.openSSL(.connection, "cannot create a TLS client connection")
        }
        SSL_set_read_ahead(ssl, 1)
        do throws(TLSError) {
            guard TLSSessionSlot(cache: sessions, key: name.cacheKey).attach(to: ssl) else {
                throw TLSError.openSSL(.connection, "cannot attach the session cache")
            }
            switch name {
            case .dns(let host):
                guard cshim_SSL_set_tlsext_host_name(ssl, host) == 1 else {
                    throw TLSError.openSSL(.connection, "cannot set SNI \(host)")
                }
                if verifiesPeer {
                    SSL_set_hostflags(ssl, UInt32(X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS))
                    guard SSL_set1_host(ssl, host) == 1 else {
                        throw TLSError.openSSL(.connection, "cannot require the certificate name \(host)")
                    }
                }
            case .ip(let address):
                if verifiesPeer, X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl), address) != 1 {
                    throw TLSError.openSSL(.connection, "cannot require the certificate IP address \(address)")
                }
            }
            sessions.offer(for: name.cacheKey, to: ssl)
            return ssl
        } catch {
            SSL_free(ssl)
            throw error
        }
    }

    /// Stores the current session of `ssl` for `serverName`, if it can be resumed.
    ///
    /// New sessions are captured automatically (see the type's documentation); call this after a handshake to
    /// store explicitly, e.g. under another name. With TLS 1.3 the session becomes resumable only once the
    /// server's ticket has been read, which happens after the handshake.
    ///
    /// - Returns: whether a resumable session was stored.
    @discardableResult
    public func remember(ssl: OpaquePointer, serverName: String) -> Bool {
        guard let name = try? TLSServerName(serverName), let session = SSL_get1_session(ssl) else { return false }
        if sessions.store(session, for: name.cacheKey) { return true }
        SSL_SESSION_free(session)
        return false
    }

    /// Drops the cached session for `serverName`, e.g. after a failed handshake.
    public func forgetSession(serverName: String) {
        guard let name = try? TLSServerName(serverName) else { return }
        sessions.remove(name.cacheKey)
    }

    /// Whether a session is cached for `serverName`.
    public func hasCachedSession(serverName: String) -> Bool {
        guard let name = try? TLSServerName(serverName) else { return false }
        return sessions.contains(name.cacheKey)
    }

    /// How many server names have a cached session.
    public var cachedSessionCount: Int { sessions.count }
}

/// New-session callback: store the session under the name of the connection that received it. Returning 1 tells
/// OpenSSL that the cache kept the reference it was given.
private let captureSession: @convention(c) (OpaquePointer?, OpaquePointer?) -> Int32 = { ssl, session in
    guard let ssl, let session, let slot = TLSSessionSlot.attached(to: ssl) else { return 0 }
    return slot.cache.store(session, for: slot.key) ? 1 : 0
}
