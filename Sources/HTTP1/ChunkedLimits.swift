/// Bounds on a chunked body's framing bytes (never on its data: data is not held).
public struct ChunkedLimits: Hashable, Sendable {
    /// Largest accepted chunk-size. Beyond it: `chunk_size_overflow`.
    public var maxChunkSize: UInt64
    /// Maximum chunk-extension bytes (from each `;` up to the CRLF) summed over the whole body.
    /// Beyond it: `chunk_extension_too_long` (RFC 9112 §7.1.1 asks for such a cap).
    public var maxExtensionBytes: Int
    /// Maximum bytes of the trailer section, including its final CRLF. Beyond it: `trailer_too_large`.
    public var maxTrailerBytes: Int
    /// Maximum number of trailer field lines. Beyond it: `too_many_fields`.
    public var maxTrailerFields: Int

    /// Creates limits.
    /// - Parameters:
    ///   - maxChunkSize: Largest accepted chunk-size (default 2^62).
    ///   - maxExtensionBytes: Total chunk-extension bytes allowed in one body.
    ///   - maxTrailerBytes: Maximum size of the trailer section.
    ///   - maxTrailerFields: Maximum number of trailer fields.
    public init(
        maxChunkSize: UInt64 = 1 << 62,
        maxExtensionBytes: Int = 4 * 1024,
        maxTrailerBytes: Int = 8 * 1024,
        maxTrailerFields: Int = 32
    ) {
        precondition(maxChunkSize > 0 && maxExtensionBytes >= 0 && maxTrailerBytes >= 2 && maxTrailerFields >= 0)
        self.maxChunkSize = maxChunkSize
        self.maxExtensionBytes = maxExtensionBytes
        self.maxTrailerBytes = maxTrailerBytes
        self.maxTrailerFields = maxTrailerFields
    }
}
