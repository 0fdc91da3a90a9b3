/// Makes server-side `SSL` objects for accepted client connections (implemented over an `SSL_CTX`).
public protocol ServerTLSProvider: Sendable {
    /// A new `SSL*` for one accepted connection, or nil if OpenSSL cannot make one.
    func makeServerSSL() -> OpaquePointer?
}

/// Makes client-side `SSL` objects for upstream connections and explains failed handshakes.
public protocol UpstreamTLSProvider: AnyObject, Sendable {
    /// A new `SSL*` with SNI and the certificate name check for `serverName` (and a cached session).
    func makeClientSSL(serverName: String) -> OpaquePointer?
    /// Called once the handshake completed (to cache the session for reuse).
    func handshakeCompleted(_ ssl: OpaquePointer, serverName: String)
    /// Why a handshake failed: the verification result and the OpenSSL error codes libevent collected.
    func failureReason(_ ssl: OpaquePointer?, errorCodes: [UInt]) -> String
}
