// Rules for archives, compressed data, packages, SQLite and Flash, and the tar rule that outranks them all.

extension SniffScanner {
    private static let gzipMagic: [UInt8] = [0x1F, 0x8B, 0x08]
    private static let zipLocalHeader: [UInt8] = [0x50, 0x4B, 0x03, 0x04]
    private static let rar4Tail: [UInt8] = [0x1A, 0x07, 0x00]
    private static let rar5Tail: [UInt8] = [0x1A, 0x07, 0x01, 0x00]
    private static let sevenZipMagic: [UInt8] = [0x37, 0x7A, 0xBC, 0xAF, 0x27, 0x1C]
    /// bzip2 block header (the digits of pi) and end-of-stream marker (sqrt pi), after "BZh" and the level.
    private static let bzip2BlockMagic: [UInt8] = [0x31, 0x41, 0x59, 0x26, 0x53, 0x59]
    private static let bzip2EndMagic: [UInt8] = [0x17, 0x72, 0x45, 0x38, 0x50, 0x90]
    private static let xzMagic: [UInt8] = [0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00]
    private static let zstdMagic: [UInt8] = [0x28, 0xB5, 0x2F, 0xFD]
    private static let cabinetMagic: [UInt8] = [0x4D, 0x53, 0x43, 0x46, 0x00, 0x00, 0x00, 0x00]
    private static let rpmMagic: [UInt8] = [0xED, 0xAB, 0xEE, 0xDB]
    private static let compoundFileMagic: [UInt8] = [0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1]
    /// Size of a tar header block, and where its checksum field and ustar magic sit.
    private static let tarBlockSize = 512
    private static let tarChecksumField = 148..<156
    private static let tarMagicOffset = 257

    /// gzip, zip (and zip-based formats), RAR 4/5, 7z, bzip2, xz, zstd, cab, ar/deb, RPM, CFB (and the legacy
    /// Office formats and MSI), SQLite, SWF.
    mutating func matchArchive() -> Match? {
        if matches(Self.gzipMagic, at: 0) { return (.gzip, "gzip") }
        if matches(Self.zipLocalHeader, at: 0) { return matchZip() }
        // WHATWG's pattern reads "Rar " (0x20), an erratum: real RAR files start "Rar!" (0x21).
        if matches("Rar!", at: 0) && (matches(Self.rar4Tail, at: 4) || matches(Self.rar5Tail, at: 4)) {
            return (.rar, "rar")
        }
        if matches(Self.sevenZipMagic, at: 0) { return (.sevenZip, "7z") }
        if matches("BZh", at: 0), let level = byte(3), level >= UInt8(ascii: "1"), level <= UInt8(ascii: "9"),
            matches(Self.bzip2BlockMagic, at: 4) || matches(Self.bzip2EndMagic, at: 4)
        {
            return (.bzip2, "bzip2")
        }
        if matches(Self.xzMagic, at: 0) { return (.xz, "xz") }
        if matches(Self.zstdMagic, at: 0) { return (.zstd, "zstd") }
        if matches(Self.cabinetMagic, at: 0) { return (.cab, "cab") }
        if matches("!<arch>\n", at: 0) {
            return matches("debian-binary", at: 8) ? (.deb, "deb") : (.arArchive, "ar")
        }
        if matches(Self.rpmMagic, at: 0) { return (.rpm, "rpm") }
        if matches(Self.compoundFileMagic, at: 0) { return matchCompoundFile() }
        if matches("SQLite format 3\0", at: 0) { return (.sqlite, "sqlite") }
        if let match = matchFlash() { return match }
        return nil
    }

    /// SWF, uncompressed (`FWS`), zlib (`CWS`) or LZMA (`ZWS`). The version byte and the little-endian file
    /// length must hold a binary byte, so text starting with "FWS" does not match.
    private mutating func matchFlash() -> Match? {
        guard matches("FWS", at: 0) || matches("CWS", at: 0) || matches("ZWS", at: 0), let version = byte(3),
            (1...63).contains(version), containsBinaryDataByte(in: 3..<8) == true
        else { return nil }
        return (.flash, "swf")
    }

    /// A POSIX (`ustar\0`) or GNU (`ustar ` + space) tar header whose checksum is right. Checked before every
    /// other rule: a tar file begins with a member name, which may look like anything ("<html>", "%PDF-").
    mutating func matchTar() -> Match? {
        guard matches("ustar", at: Self.tarMagicOffset), let next = byte(Self.tarMagicOffset + 5),
            next == 0x00 || next == 0x20, has(0, length: Self.tarBlockSize)
        else { return nil }
        // The checksum field: octal digits, optionally led by spaces, ended by NUL or space.
        var stored = 0
        var digits = 0
        for index in Self.tarChecksumField {
            let value = bytes[index]
            if value >= UInt8(ascii: "0") && value <= UInt8(ascii: "7") {
                stored = stored * 8 + Int(value - UInt8(ascii: "0"))
                digits += 1
            } else if value == 0x20 && digits == 0 {
                continue
            } else {
                break
            }
        }
        guard digits > 0 else { return nil }
        // The sum of the header bytes with the checksum field counted as spaces; old tars summed signed bytes.
        var unsignedSum = 0
        var signedSum = 0
        for index in 0..<Self.tarBlockSize {
            let value = Self.tarChecksumField.contains(index) ? 0x20 : bytes[index]
            unsignedSum += Int(value)
            signedSum += Int(Int8(bitPattern: value))
        }
        return stored == unsignedSum || stored == signedSum ? (.tar, "tar") : nil
    }
}
