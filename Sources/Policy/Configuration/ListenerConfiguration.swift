/// One address the proxy accepts client connections on (`listeners:` items).
public struct ListenerConfiguration: Sendable, Hashable {
    /// Where to listen (`address:`); port 0 picks a free port.
    public var address: ListenAddress
    /// The server certificate when clients connect with TLS (`tls:`); nil for plain HTTP (the default).
    public var tls: ListenerTLSConfiguration?

    /// - Parameters:
    ///   - address: where to listen.
    ///   - tls: the server certificate and key, or nil for plain HTTP (default).
    public init(address: ListenAddress, tls: ListenerTLSConfiguration? = nil) {
        self.address = address
        self.tls = tls
    }
}
