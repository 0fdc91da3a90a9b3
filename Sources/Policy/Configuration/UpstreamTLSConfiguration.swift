/// How partgate checks an `https` upstream and, optionally, proves itself to it (`upstreams.NAME.tls:`).
///
/// Paths are absolute once loaded (relative ones resolve against the configuration file's folder).
public struct UpstreamTLSConfiguration: Sendable, Hashable {
    /// PEM file of the certificate authorities to trust (`ca:`); nil uses the system trust store (default).
    public var ca: String?
    /// The name sent in SNI and checked against the certificate (`server_name:`); nil uses the URL's host
    /// (default).
    public var serverName: String?
    /// Whether to verify the upstream's certificate chain and name (`verify:`, default true). Turning it off
    /// is for tests against self-signed upstreams only.
    public var verify: Bool
    /// PEM client certificate chain for mutual TLS (`client_certificate:`); nil sends none (default).
    public var clientCertificate: String?
    /// PEM private key of ``clientCertificate`` (`client_key:`); set exactly when it is.
    public var clientKey: String?

    /// - Parameters:
    ///   - ca: trusted CA bundle (default nil: system trust store).
    ///   - serverName: SNI and verification name (default nil: the URL's host).
    ///   - verify: verify the upstream certificate (default true).
    ///   - clientCertificate: mTLS certificate (default nil).
    ///   - clientKey: mTLS key (default nil).
    public init(
        ca: String? = nil,
        serverName: String? = nil,
        verify: Bool = true,
        clientCertificate: String? = nil,
        clientKey: String? = nil
    ) {
        self.ca = ca
        self.serverName = serverName
        self.verify = verify
        self.clientCertificate = clientCertificate
        self.clientKey = clientKey
    }
}
