/// The server certificate of a TLS listener.
public struct ListenerTLSConfiguration: Sendable, Hashable {
    /// PEM file with the certificate chain, leaf first (absolute once loaded: relative paths in the file are
    /// resolved against the configuration file's folder).
    public var certificate: String
    /// PEM file with the private key of the leaf certificate (resolved like ``certificate``).
    public var key: String

    /// - Parameters:
    ///   - certificate: path of the PEM certificate chain.
    ///   - key: path of the PEM private key.
    public init(certificate: String, key: String) {
        self.certificate = certificate
        self.key = key
    }
}
