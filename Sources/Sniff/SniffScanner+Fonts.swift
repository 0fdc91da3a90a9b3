// Rules for fonts: the WHATWG font table (EOT, TrueType, OpenType, collections, WOFF, WOFF2).
//
// WHATWG leaves fonts out of its "unknown type" algorithm because the bare four-byte tags also begin ordinary
// text ("OTTO ..."). Each rule here therefore also checks a binary header field that text cannot hold.

extension SniffScanner {
    private static let trueTypeVersion: [UInt8] = [0x00, 0x01, 0x00, 0x00]
    /// EOT versions 1.0, 2.1 and 2.2 (little-endian field at offset 8).
    private static let eotVersions = [0x0001_0000, 0x0002_0001, 0x0002_0002]
    /// TrueType collection header versions 1.0 and 2.0.
    private static let collectionVersions = [0x0001_0000, 0x0002_0000]

    /// EOT, TTF, OTF, TTC, WOFF, WOFF2.
    mutating func matchFont() -> Match? {
        if let version = uint32LE(8), Self.eotVersions.contains(version), matches("LP", at: 34) {
            return (.eot, "eot")
        }
        if matches(Self.trueTypeVersion, at: 0) || matches("true", at: 0) {
            return hasTableCount() ? (.ttf, "ttf") : nil
        }
        if matches("OTTO", at: 0) { return hasTableCount() ? (.otf, "otf") : nil }
        if matches("ttcf", at: 0), let version = uint32BE(4), Self.collectionVersions.contains(version) {
            return (.fontCollection, "ttc")
        }
        // The flavor and length fields of a WOFF header hold binary bytes (zero high bytes).
        if matches("wOFF", at: 0), containsBinaryDataByte(in: 4..<12) == true { return (.woff, "woff") }
        if matches("wOF2", at: 0), containsBinaryDataByte(in: 4..<12) == true { return (.woff2, "woff2") }
        return nil
    }

    /// An sfnt table count (big-endian at offset 4) between 1 and 255.
    private mutating func hasTableCount() -> Bool {
        guard let tables = uint16BE(4) else { return false }
        return (1...255).contains(tables)
    }
}
