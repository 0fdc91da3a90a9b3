import CEventTLS

/// What a finished TLS handshake negotiated, for logs, metrics and tests.
public struct TLSConnectionInfo: Sendable, Hashable {
    /// The protocol version's name, e.g. `TLSv1.3`.
    public let protocolVersion: String
    /// The protocol version's number, e.g. `0x0304` for TLS 1.3 (`TLS1_3_VERSION`).
    public let protocolVersionNumber: Int32
    /// The ALPN protocol both sides agreed on, e.g. `http/1.1`; nil when none was negotiated.
    public let applicationProtocol: String?
    /// Whether the handshake resumed an earlier session (`SSL_session_reused`) instead of a full handshake.
    public let sessionReused: Bool
    /// The cipher suite, e.g. `TLS_AES_256_GCM_SHA384`.
    public let cipher: String
    /// The SNI name: on a server, what the client sent; on a client, what it sent. Nil when none.
    public let serverName: String?
    /// The common name (CN) of the peer's certificate: the upstream's on a client, the client certificate's on a
    /// server that requested one. Nil when the peer sent no certificate or it has no CN.
    public let peerCommonName: String?

    /// Reads the negotiated parameters of `ssl` (an `SSL*` after its handshake completed).
    public init(ssl: OpaquePointer) {
        protocolVersion = String(cString: SSL_get_version(ssl))
        protocolVersionNumber = SSL_version(ssl)
        var alpn: UnsafePointer<UInt8>? = nil
        var alpnLength: UInt32 = 0
        SSL_get0_alpn_selected(ssl, &alpn, &alpnLength)
        if let alpn, alpnLength > 0 {
            applicationProtocol = String(
                decoding: UnsafeBufferPointer(start: alpn, count: Int(alpnLength)), as: UTF8.self)
        } else {
            applicationProtocol = nil
        }
        sessionReused = SSL_session_reused(ssl) == 1
        cipher = SSL_get_current_cipher(ssl).flatMap { SSL_CIPHER_get_name($0) }.map { String(cString: $0) } ?? ""
        serverName = SSL_get_servername(ssl, TLSEXT_NAMETYPE_host_name).map { String(cString: $0) }
        peerCommonName = SSL_get0_peer_certificate(ssl).flatMap { TLSCertificate.commonName(of: $0) }
    }
}
