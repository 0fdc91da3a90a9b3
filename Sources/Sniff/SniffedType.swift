/// A MIME type the sniffer can report, with its category.
///
/// Every value the sniffer returns is one of the static constants declared in the `SniffedType+*.swift`
/// catalog files and listed in `SniffedType.all`, so policy code can compare against them
/// (`result.type == .png`) and tests can walk the whole set.
public struct SniffedType: Sendable, Hashable, CustomStringConvertible {
    /// The canonical MIME type essence, lowercase, without parameters (e.g. "image/png").
    public let mimeType: String
    /// The coarse family the type belongs to.
    public let category: SniffCategory

    /// Creates a catalog entry. Internal: the catalog is closed so `all` stays complete.
    init(_ mimeType: String, _ category: SniffCategory) {
        self.mimeType = mimeType
        self.category = category
    }

    /// True for the WHATWG "scriptable MIME types": HTML, XML (any `+xml` type, SVG included) and PDF.
    /// A browser may run script found in such a resource if it is served with that type.
    public var isScriptable: Bool {
        mimeType == "text/html" || mimeType == "text/xml" || mimeType.hasSuffix("+xml")
            || mimeType == "application/pdf"
    }

    /// The MIME type, e.g. "image/png".
    public var description: String { mimeType }

    /// Every type the sniffer can report, grouped by category.
    public static let all: [SniffedType] =
        images + audioAndVideo + fonts + archives + documents + executables + scriptsAndMarkup + [
            .plainText, .sqlite, .octetStream,
        ]
}
