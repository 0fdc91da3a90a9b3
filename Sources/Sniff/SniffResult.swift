/// What `MIMESniffer` concluded about a resource's leading bytes.
public struct SniffResult: Sendable, Hashable, CustomStringConvertible {
    /// The detected type.
    public let type: SniffedType
    /// A short, stable name of the rule that decided, for audit logs and tests: e.g. "png", "pe" (MZ with a
    /// PE header), "mz" (MZ without one), "html-tag", "svg-root", "zip-ooxml", "bom-utf16le", "text",
    /// "binary", "empty".
    public let signature: String
    /// True when no further bytes of the resource could change the answer: the resource ended, the window
    /// is full, or every rule that outranks the decision was settled by the bytes already seen.
    ///
    /// A policy stage may decide as soon as this is true; it must decide when the window fills or the part
    /// ends, whichever comes first.
    public let isFinal: Bool

    /// Creates a result.
    /// - Parameters:
    ///   - type: the detected type.
    ///   - signature: the name of the rule that decided.
    ///   - isFinal: whether more bytes could change the answer.
    public init(type: SniffedType, signature: String, isFinal: Bool) {
        self.type = type
        self.signature = signature
        self.isFinal = isFinal
    }

    /// The canonical MIME type essence, e.g. "image/png".
    public var mimeType: String { type.mimeType }
    /// The coarse category, e.g. `.image`.
    public var category: SniffCategory { type.category }
    /// Whether a browser could run script in the resource (HTML, XML, SVG, PDF).
    public var isScriptable: Bool { type.isScriptable }

    /// "image/png (png)", with " provisional" appended when `isFinal` is false.
    public var description: String {
        "\(type.mimeType) (\(signature))" + (isFinal ? "" : " provisional")
    }
}
