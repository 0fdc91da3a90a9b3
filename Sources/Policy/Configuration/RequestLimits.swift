import Multipart

/// Per-request limits (`limits:` at the top level, and per route as overrides).
///
/// Every buffer partgate holds for a request is bounded by one of these or by the multipart parser's own
/// fixed limits. Keys beyond DESIGN.md's list: `header_count` and `drain_timeout` (documented below).
public struct RequestLimits: Sendable, Hashable {
    /// Maximum bytes of the request head: request line, header lines and line breaks (`header_bytes:`,
    /// default 16 KiB; 431 beyond).
    public var headerBytes: Int
    /// Maximum header lines in the request head (`header_count:`, default 100; 431 beyond). Added to the
    /// DESIGN.md list.
    public var headerCount: Int
    /// Maximum body bytes as received, after de-chunking (`body_bytes:`, default 1 GiB; 413 beyond).
    public var bodyBytes: Int64
    /// Maximum number of parts in a multipart body (`parts:`, default 1000; 413 beyond).
    public var parts: Int
    /// Maximum bytes of one part's header section (`part_header_bytes:`, default 8 KiB; 431 beyond).
    public var partHeaderBytes: Int
    /// Maximum bytes of one part without a filename, a form field (`field_bytes:`, default 1 MiB; 413 beyond).
    public var fieldBytes: Int64
    /// Time allowed to receive the whole request head (`header_timeout:`, default 10s; 408 beyond).
    public var headerTimeout: Duration
    /// Longest pause between two reads while a request or response is under way, and how long an idle
    /// keep-alive connection is kept (`idle_timeout:`, default 60s).
    public var idleTimeout: Duration
    /// On SIGTERM, how long in-flight requests may take to finish before their connections are closed
    /// (`drain_timeout:`, default 30s; global only). Added to the DESIGN.md list.
    public var drainTimeout: Duration

    /// - Parameters:
    ///   - headerBytes: request head bytes (default 16 KiB).
    ///   - headerCount: request header lines (default 100).
    ///   - bodyBytes: body bytes (default 1 GiB).
    ///   - parts: parts per body (default 1000).
    ///   - partHeaderBytes: header bytes per part (default 8 KiB).
    ///   - fieldBytes: bytes per non-file part (default 1 MiB).
    ///   - headerTimeout: time to receive the head (default 10s).
    ///   - idleTimeout: longest pause between reads (default 60s).
    ///   - drainTimeout: shutdown grace period (default 30s).
    public init(
        headerBytes: Int = 16 * 1024,
        headerCount: Int = 100,
        bodyBytes: Int64 = 1 << 30,
        parts: Int = 1000,
        partHeaderBytes: Int = 8 * 1024,
        fieldBytes: Int64 = 1 << 20,
        headerTimeout: Duration = .seconds(10),
        idleTimeout: Duration = .seconds(60),
        drainTimeout: Duration = .seconds(30)
    ) {
        self.headerBytes = headerBytes
        self.headerCount = headerCount
        self.bodyBytes = bodyBytes
        self.parts = parts
        self.partHeaderBytes = partHeaderBytes
        self.fieldBytes = fieldBytes
        self.headerTimeout = headerTimeout
        self.idleTimeout = idleTimeout
        self.drainTimeout = drainTimeout
    }

    /// These limits with every key `overrides` sets replaced by its value.
    /// - Parameter overrides: a route's `limits:` section.
    public func applying(_ overrides: RequestLimitOverrides) -> RequestLimits {
        var merged = self
        if let value = overrides.headerBytes { merged.headerBytes = value }
        if let value = overrides.headerCount { merged.headerCount = value }
        if let value = overrides.bodyBytes { merged.bodyBytes = value }
        if let value = overrides.parts { merged.parts = value }
        if let value = overrides.partHeaderBytes { merged.partHeaderBytes = value }
        if let value = overrides.fieldBytes { merged.fieldBytes = value }
        if let value = overrides.idleTimeout { merged.idleTimeout = value }
        return merged
    }

    /// The multipart parser's limits for these request limits: `parts`, `part_header_bytes` and `field_bytes`
    /// from here, the parser's defaults for the rest.
    public var multipartLimits: MultipartLimits {
        MultipartLimits(parts: parts, partHeaderBytes: partHeaderBytes, fieldBytes: fieldBytes)
    }
}
