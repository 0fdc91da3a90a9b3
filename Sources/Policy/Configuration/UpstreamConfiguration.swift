/// A backend that routes forward to (`upstreams.NAME:`).
public struct UpstreamConfiguration: Sendable, Hashable {
    /// Where the upstream lives (`url:`).
    public var url: UpstreamURL
    /// TLS settings (`tls:`); only for `https` URLs. An `https` upstream without a `tls:` section verifies
    /// against the system trust store with the URL's host as the name (``UpstreamTLSConfiguration/init()``
    /// defaults), which ``effectiveTLS`` returns.
    public var tls: UpstreamTLSConfiguration?
    /// Time allowed for TCP connect plus TLS handshake (`connect_timeout:`, default 5s).
    public var connectTimeout: Duration
    /// Time allowed between sending the request and receiving the response head (`response_timeout:`,
    /// default 60s).
    public var responseTimeout: Duration
    /// Idle keep-alive connections kept per worker (`max_idle_connections:`, default 32; 0 disables reuse).
    public var maxIdleConnections: Int

    /// - Parameters:
    ///   - url: where the upstream lives.
    ///   - tls: TLS settings for an `https` URL (default nil: system trust store, URL host as name).
    ///   - connectTimeout: connect + handshake budget (default 5s).
    ///   - responseTimeout: wait for the response head (default 60s).
    ///   - maxIdleConnections: idle connections kept per worker (default 32).
    public init(
        url: UpstreamURL,
        tls: UpstreamTLSConfiguration? = nil,
        connectTimeout: Duration = .seconds(5),
        responseTimeout: Duration = .seconds(60),
        maxIdleConnections: Int = 32
    ) {
        self.url = url
        self.tls = tls
        self.connectTimeout = connectTimeout
        self.responseTimeout = responseTimeout
        self.maxIdleConnections = maxIdleConnections
    }

    /// The TLS settings to use: ``tls``, the defaults for an `https` URL without a `tls:` section, or nil for
    /// `http`.
    public var effectiveTLS: UpstreamTLSConfiguration? {
        url.usesTLS ? (tls ?? UpstreamTLSConfiguration()) : nil
    }

    /// The name for SNI and certificate verification: `server_name`, else the URL host. Nil for `http`, and
    /// for an IP-literal host without `server_name` (SNI carries no IP addresses; verification then checks the
    /// certificate's IP address entries).
    public var serverName: String? {
        guard url.usesTLS else { return nil }
        if let name = tls?.serverName { return name }
        return url.hostIsIPLiteral ? nil : url.host
    }
}
