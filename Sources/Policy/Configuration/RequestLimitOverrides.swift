/// A route's `limits:` section: the keys it sets, each replacing the global value for that route.
///
/// `header_timeout` and `drain_timeout` cannot be set per route: the head is read before a route is chosen,
/// and draining concerns the whole process. `header_bytes` and `header_count` can, but only to tighten the
/// global value: the head is read under the global limits, then checked against the route's.
public struct RequestLimitOverrides: Sendable, Hashable {
    /// Replaces ``RequestLimits/headerBytes`` (at most the global value).
    public var headerBytes: Int?
    /// Replaces ``RequestLimits/headerCount`` (at most the global value).
    public var headerCount: Int?
    /// Replaces ``RequestLimits/bodyBytes``.
    public var bodyBytes: Int64?
    /// Replaces ``RequestLimits/parts``.
    public var parts: Int?
    /// Replaces ``RequestLimits/partHeaderBytes``.
    public var partHeaderBytes: Int?
    /// Replaces ``RequestLimits/fieldBytes``.
    public var fieldBytes: Int64?
    /// Replaces ``RequestLimits/idleTimeout``.
    public var idleTimeout: Duration?

    /// - Parameters: each nil (the default) keeps the global value.
    public init(
        headerBytes: Int? = nil,
        headerCount: Int? = nil,
        bodyBytes: Int64? = nil,
        parts: Int? = nil,
        partHeaderBytes: Int? = nil,
        fieldBytes: Int64? = nil,
        idleTimeout: Duration? = nil
    ) {
        self.headerBytes = headerBytes
        self.headerCount = headerCount
        self.bodyBytes = bodyBytes
        self.parts = parts
        self.partHeaderBytes = partHeaderBytes
        self.fieldBytes = fieldBytes
        self.idleTimeout = idleTimeout
    }
}
