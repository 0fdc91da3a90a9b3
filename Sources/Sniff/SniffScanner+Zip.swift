// Rule for zip-based formats: ODF and EPUB (a stored `mimetype` first entry), OOXML, JAR and APK (entry names
// seen while walking the local file headers that lie inside the window).

extension SniffScanner {
    private static let localHeaderMagic: [UInt8] = [0x50, 0x4B, 0x03, 0x04]
    /// Local file header field offsets (APPNOTE 4.3.7).
    private static let flagsField = 6
    private static let methodField = 8
    private static let compressedSizeField = 18
    private static let uncompressedSizeField = 22
    private static let nameLengthField = 26
    private static let extraLengthField = 28
    private static let localHeaderSize = 30
    /// General purpose flag bit 3: sizes follow the data, so the next header cannot be located.
    private static let dataDescriptorFlag = 0x0008
    /// Types an ODF/EPUB `mimetype` entry may name.
    private static let packageTypes: [SniffedType] = SniffedType.openDocumentTypes + [.epub]

    /// A zip archive: ODF or EPUB when the first entry is an uncompressed `mimetype` naming a known package
    /// type; otherwise DOCX, XLSX, PPTX, APK or JAR when an entry name inside the window tells; else zip.
    mutating func matchZip() -> Match {
        if let match = matchPackageMimetypeEntry() { return match }
        var offset = 0
        var sawJavaManifest = false
        var sawAndroidEntry = false
        while matches(Self.localHeaderMagic, at: offset), let flags = uint16LE(offset + Self.flagsField),
            let compressedSize = uint32LE(offset + Self.compressedSizeField),
            let nameLength = uint16LE(offset + Self.nameLengthField),
            let extraLength = uint16LE(offset + Self.extraLengthField)
        {
            let name = offset + Self.localHeaderSize
            guard has(name, length: nameLength) else { break }
            let entry = name..<name + nameLength
            if entryName(entry, hasPrefix: "word/") { return (.docx, "zip-ooxml") }
            if entryName(entry, hasPrefix: "xl/") { return (.xlsx, "zip-ooxml") }
            if entryName(entry, hasPrefix: "ppt/") { return (.pptx, "zip-ooxml") }
            if entryName(entry, is: "AndroidManifest.xml") || entryName(entry, is: "classes.dex") {
                sawAndroidEntry = true
            }
            if entryName(entry, is: "META-INF/MANIFEST.MF") { sawJavaManifest = true }
            if flags & Self.dataDescriptorFlag != 0 { break }
            offset = entry.upperBound + extraLength + compressedSize
        }
        if sawAndroidEntry { return (.apk, "zip-apk") }
        if sawJavaManifest { return (.jar, "zip-jar") }
        return (.zip, "zip")
    }

    /// ODF and EPUB (OCF) put an entry named `mimetype`, stored uncompressed, first; its content is the type.
    /// Only types from the catalog are returned, never the file's own string.
    private mutating func matchPackageMimetypeEntry() -> Match? {
        guard let method = uint16LE(Self.methodField), method == 0,
            let compressedSize = uint32LE(Self.compressedSizeField),
            let uncompressedSize = uint32LE(Self.uncompressedSizeField), compressedSize == uncompressedSize,
            let nameLength = uint16LE(Self.nameLengthField), let extraLength = uint16LE(Self.extraLengthField),
            nameLength == 8, matches("mimetype", at: Self.localHeaderSize)
        else { return nil }
        let content = Self.localHeaderSize + nameLength + extraLength
        guard compressedSize <= 128, has(content, length: compressedSize) else { return nil }
        for type in Self.packageTypes where type.mimeType.utf8.count == compressedSize {
            if type.mimeType.utf8.enumerated().allSatisfy({ bytes[content + $0.offset] == $0.element }) {
                return (type, type == .epub ? "zip-epub" : "zip-odf")
            }
        }
        return nil
    }

    /// Whether an entry name (inside the window) starts with `prefix`.
    private func entryName(_ name: Range<Int>, hasPrefix prefix: StaticString) -> Bool {
        prefix.withUTF8Buffer { text in
            text.count <= name.count && text.indices.allSatisfy { bytes[name.lowerBound + $0] == text[$0] }
        }
    }

    /// Whether an entry name (inside the window) is exactly `text`.
    private func entryName(_ name: Range<Int>, is text: StaticString) -> Bool {
        name.count == text.utf8CodeUnitCount && entryName(name, hasPrefix: text)
    }
}
