/// Size and count limits the parser enforces while streaming.
///
/// Every buffer the parser holds is bounded by one of these; a body that exceeds one fails with a
/// ``MultipartError`` whose reason is ``MultipartLimit``. Defaults follow DESIGN.md.
public struct MultipartLimits: Sendable, Hashable {
    /// Maximum number of parts.
    public var parts: Int
    /// Maximum bytes of one part's header section (all header lines and their line breaks).
    public var partHeaderBytes: Int
    /// Maximum header lines in one part.
    public var headerLines: Int
    /// Maximum bytes before the first delimiter.
    public var preambleBytes: Int
    /// Maximum bytes after the close delimiter.
    public var epilogueBytes: Int
    /// Maximum body bytes of one part without a filename (a form field).
    public var fieldBytes: Int64

    /// - Parameters:
    ///   - parts: maximum number of parts (default 1000).
    ///   - partHeaderBytes: maximum header-section bytes per part (default 8 KiB).
    ///   - headerLines: maximum header lines per part (default 16).
    ///   - preambleBytes: maximum preamble bytes (default 1 KiB).
    ///   - epilogueBytes: maximum epilogue bytes (default 1 KiB).
    ///   - fieldBytes: maximum bytes of a part without filename (default 1 MiB).
    public init(
        parts: Int = 1000,
        partHeaderBytes: Int = 8 * 1024,
        headerLines: Int = 16,
        preambleBytes: Int = 1024,
        epilogueBytes: Int = 1024,
        fieldBytes: Int64 = 1024 * 1024
    ) {
        self.parts = parts
        self.partHeaderBytes = partHeaderBytes
        self.headerLines = headerLines
        self.preambleBytes = preambleBytes
        self.epilogueBytes = epilogueBytes
        self.fieldBytes = fieldBytes
    }
}

/// Which ``MultipartLimits`` value a body exceeded.
public enum MultipartLimit: String, CaseIterable, Sendable, Hashable {
    case parts
    case partHeaderBytes = "part_header_bytes"
    case headerLines = "header_lines"
    case preambleBytes = "preamble_bytes"
    case epilogueBytes = "epilogue_bytes"
    case fieldBytes = "field_bytes"
}
