// Rules for text-based documents (PDF, PostScript, RTF) and byte order marks.

extension SniffScanner {
    /// The DOS EPS binary header (`C5 D0 D3 C6`), which wraps PostScript.
    private static let binaryEPSMagic: [UInt8] = [0xC5, 0xD0, 0xD3, 0xC6]
    private static let utf16BigEndianBOM: [UInt8] = [0xFE, 0xFF]
    private static let utf16LittleEndianBOM: [UInt8] = [0xFF, 0xFE]
    private static let utf8BOM: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// PDF (`%PDF-`), PostScript (`%!PS-Adobe-` or the binary EPS header) and RTF (`{\rtf`), all at offset 0.
    mutating func matchTextDocument() -> Match? {
        if matches("%PDF-", at: 0) { return (.pdf, "pdf") }
        if matches("%!PS-Adobe-", at: 0) { return (.postScript, "postscript") }
        if matches(Self.binaryEPSMagic, at: 0) { return (.postScript, "eps-binary") }
        if matches("{\\rtf", at: 0) { return (.rtf, "rtf") }
        return nil
    }

    /// UTF-16BE, UTF-16LE and UTF-8 byte order marks: text/plain, as in WHATWG. (Markup after a UTF-8 BOM was
    /// already recognised by `matchMarkup`.)
    mutating func matchByteOrderMark() -> Match? {
        if matches(Self.utf16BigEndianBOM, at: 0) { return (.plainText, "bom-utf16be") }
        if matches(Self.utf16LittleEndianBOM, at: 0) { return (.plainText, "bom-utf16le") }
        if matches(Self.utf8BOM, at: 0) { return (.plainText, "bom-utf8") }
        return nil
    }
}
