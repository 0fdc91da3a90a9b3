/// Bounds on one message head (request or response), in the style of
/// `NIOHTTPDecoderLimitConfiguration`.
///
/// Each limit is inclusive: a head of exactly `maxHeadBytes` bytes is accepted, one byte more is
/// refused. Line lengths count the bytes of the line without its CRLF.
public struct HeadLimits: Hashable, Sendable {
    /// Maximum bytes of the whole head, from the first byte (leading empty lines included) through
    /// the CRLF that ends the field section. Beyond it: `head_too_large` (431).
    public var maxHeadBytes: Int
    /// Maximum number of field lines. Beyond it: `too_many_fields` (431).
    public var maxFieldCount: Int
    /// Maximum length of the request line or status line. Beyond it: `request_line_too_long` (414).
    public var maxStartLineBytes: Int
    /// Maximum length of one field line. Beyond it: `field_line_too_long` (431).
    public var maxFieldLineBytes: Int

    /// Creates limits; the defaults match partgate's `limits.header_bytes` default (16 KiB).
    /// - Parameters:
    ///   - maxHeadBytes: Maximum bytes of the whole head.
    ///   - maxFieldCount: Maximum number of field lines.
    ///   - maxStartLineBytes: Maximum length of the start line, without CRLF.
    ///   - maxFieldLineBytes: Maximum length of one field line, without CRLF.
    public init(
        maxHeadBytes: Int = 16 * 1024,
        maxFieldCount: Int = 100,
        maxStartLineBytes: Int = 8 * 1024,
        maxFieldLineBytes: Int = 8 * 1024
    ) {
        precondition(maxHeadBytes > 0 && maxFieldCount >= 0 && maxStartLineBytes > 0 && maxFieldLineBytes > 0)
        self.maxHeadBytes = maxHeadBytes
        self.maxFieldCount = maxFieldCount
        self.maxStartLineBytes = maxStartLineBytes
        self.maxFieldLineBytes = maxFieldLineBytes
    }
}
