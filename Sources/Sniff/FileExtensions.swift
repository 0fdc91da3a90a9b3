/// The file-extension <-> MIME type table, for checking a filename's extension against the sniffed type.
///
/// Extensions are returned lowercase with a leading dot (".jpg"); lookups accept any case, with or without the
/// dot. MIME types are returned as canonical essences (lowercase, no parameters); lookups accept aliases
/// ("image/jpg", "audio/x-wav", "application/x-gzip", ...) and parameters ("text/plain; charset=utf-8").
/// Every type `MIMESniffer` can report has at least one extension here.
public enum FileExtensions {
    /// The canonical form of a MIME type: parameters dropped, whitespace trimmed, lowercased, aliases resolved.
    /// - Parameter mimeType: a MIME type as a client or the sniffer gives it, e.g. "Image/JPG; q=1".
    /// - Returns: the canonical essence, e.g. "image/jpeg"; an unknown type is returned lowercased and trimmed.
    public static func canonicalMIMEType(_ mimeType: String) -> String {
        var essence = mimeType.prefix { $0 != ";" }
        while let first = essence.first, first == " " || first == "\t" { essence = essence.dropFirst() }
        while let last = essence.last, last == " " || last == "\t" { essence = essence.dropLast() }
        let key = essence.lowercased()
        return canonicalByName[key] ?? key
    }

    /// The canonical MIME types registered for an extension, its primary type first.
    /// - Parameter fileExtension: e.g. "JPG", ".jpeg".
    /// - Returns: e.g. ["image/jpeg"]; empty for an unknown extension.
    public static func mimeTypes(forExtension fileExtension: String) -> [String] {
        typesByExtension[normalized(fileExtension)] ?? []
    }

    /// The types content with this extension may sniff as: `mimeTypes(forExtension:)` plus the types the
    /// sniffer reports when the window cannot be more specific (".docx" also accepts "application/zip", ".doc"
    /// accepts "application/x-ole-storage", ".csv" accepts "text/plain", ".heif" accepts "image/heic", ...).
    /// - Parameter fileExtension: e.g. "docx".
    /// - Returns: canonical MIME types, primary first; empty for an unknown extension.
    public static func acceptedMIMETypes(forExtension fileExtension: String) -> [String] {
        let key = normalized(fileExtension)
        return (typesByExtension[key] ?? []) + (fallbacks[key] ?? [])
    }

    /// The extensions of a MIME type, preferred first.
    /// - Parameter mimeType: a MIME type or alias, e.g. "image/jpeg".
    /// - Returns: e.g. [".jpg", ".jpeg", ".jpe", ".jfif", ".pjpeg", ".pjp"]; empty for an unknown type.
    public static func extensions(forMIMEType mimeType: String) -> [String] {
        guard let entry = entryByType[canonicalMIMEType(mimeType)] else { return [] }
        return entry.extensions.map { "." + $0 }
    }

    /// The extension to give a file of this type, e.g. when renaming an upload to `{uuid}{ext}`.
    /// - Parameter mimeType: a MIME type or alias, e.g. "image/jpeg".
    /// - Returns: e.g. ".jpg"; nil for an unknown type.
    public static func preferredExtension(forMIMEType mimeType: String) -> String? {
        extensions(forMIMEType: mimeType).first
    }

    /// Whether a file with this extension may hold content of this (sniffed) type. Aliases on either side
    /// match (".jpeg" and "image/jpg"; ".tif" and "image/tiff"), and so do the fallbacks of
    /// `acceptedMIMETypes(forExtension:)`.
    /// - Parameters:
    ///   - fileExtension: e.g. ".JPG" or "jpg".
    ///   - mimeType: e.g. the sniffed "image/jpeg".
    /// - Returns: false for an unknown or empty extension.
    public static func matches(extension fileExtension: String, mimeType: String) -> Bool {
        acceptedMIMETypes(forExtension: fileExtension).contains(canonicalMIMEType(mimeType))
    }

    /// The extension of a filename: the last `.`-suffix of its last path component, lowercased, with the dot.
    ///
    /// Both `/` and `\` end a path component (browsers have sent full Windows paths). Trailing dots and spaces
    /// are ignored, as Windows drops them when saving ("evil.exe." is "evil.exe"). A name whose only dots lead
    /// it (".bashrc") has no extension.
    /// - Parameter filename: e.g. "C:\\Users\\me\\Photo.JPG".
    /// - Returns: e.g. ".jpg"; nil when there is none.
    public static func fileExtension(ofFilename filename: String) -> String? {
        var utf8 = filename
        if let ascii = utf8.withUTF8({ asciiFileExtension($0) }) { return ascii }
        var name = Substring(filename)
        if let separator = name.lastIndex(where: { $0 == "/" || $0 == "\\" }) {
            name = name[name.index(after: separator)...]
        }
        while let last = name.last, last == "." || last == " " { name = name.dropLast() }
        guard let dot = name.lastIndex(of: "."), name[..<dot].contains(where: { $0 != "." }) else { return nil }
        let suffix = name[name.index(after: dot)...]
        return suffix.isEmpty ? nil : "." + suffix.lowercased()
    }

    /// ``fileExtension(ofFilename:)`` over the bytes of an ASCII filename (where bytes and characters agree: the
    /// only multi-byte ASCII character, CR LF, holds none of the separators); nil when it is not ASCII.
    private static func asciiFileExtension(_ bytes: UnsafeBufferPointer<UInt8>) -> String?? {
        guard !bytes.contains(where: { $0 >= 0x80 }) else { return nil }
        var start = 0
        if let separator = bytes.lastIndex(where: { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "\\") }) {
            start = separator + 1
        }
        var end = bytes.count
        while end > start, bytes[end - 1] == UInt8(ascii: ".") || bytes[end - 1] == UInt8(ascii: " ") { end -= 1 }
        guard let dot = bytes[start..<end].lastIndex(of: UInt8(ascii: ".")),
            bytes[start..<dot].contains(where: { $0 != UInt8(ascii: ".") }), dot + 1 < end
        else { return .some(nil) }
        var suffix = [UInt8(ascii: ".")]
        for byte in bytes[(dot + 1)..<end] {
            suffix.append((0x41...0x5A).contains(byte) ? byte + 0x20 : byte)
        }
        return .some(String(decoding: suffix, as: UTF8.self))
    }

    /// Every canonical MIME type in the table.
    public static var allMIMETypes: [String] { entries.map(\.mimeType) }

    // MARK: Lookup tables

    /// An extension as a lookup key: lowercase, without one leading dot.
    private static func normalized(_ fileExtension: String) -> String {
        (fileExtension.hasPrefix(".") ? String(fileExtension.dropFirst()) : fileExtension).lowercased()
    }

    private static let typesByExtension: [String: [String]] = {
        var table: [String: [String]] = [:]
        for entry in entries {
            for fileExtension in entry.extensions { table[fileExtension, default: []].append(entry.mimeType) }
        }
        return table
    }()

    private static let entryByType: [String: Entry] = {
        var table: [String: Entry] = [:]
        for entry in entries { table[entry.mimeType] = entry }
        return table
    }()

    private static let canonicalByName: [String: String] = {
        var table: [String: String] = [:]
        for entry in entries {
            table[entry.mimeType] = entry.mimeType
            for alias in entry.aliases { table[alias] = entry.mimeType }
        }
        return table
    }()
}
