/// The coarse family of a sniffed type, for policies that allow or deny whole groups.
public enum SniffCategory: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Raster or vector images (SVG included; see `SniffResult.isScriptable`).
    case image
    /// Audio streams and containers.
    case audio
    /// Video streams and containers (generic Ogg included).
    case video
    /// Font files (TrueType, OpenType, collections, WOFF, WOFF2, EOT).
    case font
    /// Compressed data and general-purpose archives (zip, gzip, tar, 7z, rar, ...).
    case archive
    /// Documents: PDF, PostScript, RTF, legacy and XML-based office formats, EPUB.
    case document
    /// Native or managed code that a system runs directly (PE, ELF, Mach-O, Java, wasm, jar, apk, msi, SWF).
    case executable
    /// Interpreted scripts: shebang scripts, PHP, JavaScript.
    case script
    /// Markup that a browser renders and may script: HTML, XHTML, XML.
    case markup
    /// Plain text with no binary data bytes.
    case text
    /// Structured data files (SQLite databases).
    case data
    /// Binary data of no recognised format (`application/octet-stream`).
    case binary

    /// The raw value, e.g. "image".
    public var description: String { rawValue }
}
