/// What the admin listener answers with: the metrics text and the readiness verdict. Both are called on the
/// admin loop's thread for every request, so they must be cheap and must not block (the `partgate`
/// executable renders its Prometheus registry and reads the last readiness check).
public struct AdminHandlers: Sendable {
    /// The Prometheus text exposition (format 0.0.4) for `GET /metrics`.
    public var metrics: @Sendable () -> [UInt8]
    /// The readiness verdict for `GET /readyz`.
    public var readiness: @Sendable () -> AdminReadiness

    /// - Parameters:
    ///   - metrics: renders the metrics text.
    ///   - readiness: the current readiness verdict.
    public init(metrics: @escaping @Sendable () -> [UInt8], readiness: @escaping @Sendable () -> AdminReadiness) {
        self.metrics = metrics
        self.readiness = readiness
    }
}

/// Whether the proxy can serve: `/readyz` answers 200, or 503 with the reason.
public struct AdminReadiness: Sendable, Equatable {
    /// True when the listeners are bound, the configuration is loaded and every upstream's host resolves.
    public var ready: Bool
    /// Why not, in one short sentence (nil when ready).
    public var reason: String?

    /// - Parameters:
    ///   - ready: whether the proxy can serve.
    ///   - reason: why not.
    public init(ready: Bool, reason: String? = nil) {
        self.ready = ready
        self.reason = reason
    }
}
