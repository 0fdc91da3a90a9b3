import Foundation

/// Byte builders for sniffing fixtures: small but structurally real headers of each format.
enum Fixture {
    // MARK: Encoding helpers

    /// The UTF-8 bytes of `text`.
    static func ascii(_ text: String) -> [UInt8] { Array(text.utf8) }

    /// A little-endian 16-bit field.
    static func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }

    /// A little-endian 32-bit field.
    static func le32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8(value >> (8 * $0) & 0xFF) } }

    /// A big-endian 32-bit field.
    static func be32(_ value: Int) -> [UInt8] { (0..<4).reversed().map { UInt8(value >> (8 * $0) & 0xFF) } }

    /// ASCII text as UTF-16LE.
    static func utf16le(_ text: String) -> [UInt8] { text.utf8.flatMap { [$0, 0] } }

    /// `bytes` extended with `filler` to `length` bytes.
    static func padded(_ bytes: [UInt8], to length: Int, with filler: UInt8 = 0) -> [UInt8] {
        bytes + [UInt8](repeating: filler, count: max(0, length - bytes.count))
    }

    // MARK: Containers

    /// A zip local file header followed by its data.
    /// - Parameters:
    ///   - name: the entry name.
    ///   - content: the (stored or pretend-compressed) data.
    ///   - method: 0 stored, 8 deflated.
    ///   - dataDescriptor: set flag bit 3 and leave the sizes zero, as streaming zippers do.
    static func zipEntry(
        _ name: String,
        _ content: [UInt8] = [],
        method: Int = 8,
        dataDescriptor: Bool = false
    )
        -> [UInt8]
    {
        let size = dataDescriptor ? 0 : content.count
        return [0x50, 0x4B, 0x03, 0x04] + le16(20) + le16(dataDescriptor ? 0x0008 : 0) + le16(method) + le16(0)
            + le16(0) + le32(0x1234_5678) + le32(size) + le32(size) + le16(name.utf8.count) + le16(0) + ascii(name)
            + content
    }

    /// An ISO-BMFF `ftyp` box followed by an empty `mdat` box.
    static func ftyp(_ major: String, _ compatible: [String]) -> [UInt8] {
        be32(16 + 4 * compatible.count) + ascii("ftyp") + ascii(major) + be32(0) + compatible.flatMap(ascii)
            + be32(8) + ascii("mdat")
    }

    /// An EBML header with the given DocType, then the start of a Segment.
    static func ebml(docType: String) -> [UInt8] {
        let elements: [UInt8] =
            [0x42, 0x86, 0x81, 0x01, 0x42, 0xF7, 0x81, 0x01, 0x42, 0xF2, 0x81, 0x04, 0x42, 0xF3, 0x81, 0x08]
            + [0x42, 0x82, UInt8(0x80 | docType.utf8.count)] + ascii(docType)
            + [0x42, 0x87, 0x81, 0x04, 0x42, 0x85, 0x81, 0x02]
        return [0x1A, 0x45, 0xDF, 0xA3, UInt8(0x80 | elements.count)] + elements
            + [0x18, 0x53, 0x80, 0x67, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10, 0x00]
    }

    /// The first Ogg page (beginning of stream) holding one packet.
    static func oggPage(packet: [UInt8]) -> [UInt8] {
        ascii("OggS") + [0x00, 0x02] + [UInt8](repeating: 0, count: 8) + le32(0x1EADBEEF) + le32(0) + le32(0)
            + [0x01, UInt8(packet.count)] + packet
    }

    /// An MPEG-1 Layer III frame, 128 kbit/s at 44.1 kHz without padding: 417 bytes.
    static let mp3Frame: [UInt8] = padded([0xFF, 0xFB, 0x90, 0x64], to: 417, with: 0x00)

    /// A 512-byte tar header for a 10-byte member, with a correct checksum.
    /// - Parameters:
    ///   - name: the member name (may look like anything).
    ///   - gnu: GNU magic (`ustar  \0`) instead of POSIX (`ustar\000`).
    ///   - corruptChecksum: store a wrong checksum.
    static func tarHeader(name: String, gnu: Bool = false, corruptChecksum: Bool = false) -> [UInt8] {
        var header = [UInt8](repeating: 0, count: 512)
        func put(_ bytes: [UInt8], at offset: Int) {
            header.replaceSubrange(offset..<offset + bytes.count, with: bytes)
        }
        put(ascii(name), at: 0)
        put(ascii("0000644\0"), at: 100)
        put(ascii("0001750\0"), at: 108)
        put(ascii("0001750\0"), at: 116)
        put(ascii("00000000012\0"), at: 124)
        put(ascii("14567043120\0"), at: 136)
        put(ascii("        "), at: 148)
        put(ascii("0"), at: 156)
        put(gnu ? ascii("ustar  \0") : ascii("ustar\u{0}00"), at: 257)
        let sum = header.reduce(0) { $0 + Int($1) } + (corruptChecksum ? 1 : 0)
        let octal = String(sum, radix: 8)
        put(ascii(String(repeating: "0", count: max(0, 6 - octal.count)) + octal) + [0x00, 0x20], at: 148)
        return header
    }

    /// A Compound File Binary header plus its first directory sector.
    /// - Parameters:
    ///   - rootCLSID: the root entry's CLSID (16 bytes); zero when nil.
    ///   - streams: names of stream entries after the root.
    ///   - directorySector: the first directory sector number (0 puts it right after the header).
    static func compoundFile(
        rootCLSID: [UInt8]? = nil,
        streams: [String] = [],
        directorySector: Int = 0
    )
        -> [UInt8]
    {
        var header: [UInt8] = [0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1] + [UInt8](repeating: 0, count: 16)
        header += le16(0x3E) + le16(3) + [0xFE, 0xFF] + le16(9) + le16(6) + [UInt8](repeating: 0, count: 6)
        header += le32(0) + le32(1) + le32(directorySector) + le32(0) + le32(0x1000) + le32(-2 & 0xFFFF_FFFF)
        header += le32(0) + le32(-2 & 0xFFFF_FFFF) + le32(0)
        header = padded(header, to: 512, with: 0xFF)
        func entry(_ name: String, type: UInt8, clsid: [UInt8]) -> [UInt8] {
            var bytes = padded(utf16le(name), to: 64)
            bytes += le16((name.utf8.count + 1) * 2) + [type, 0x01] + le32(-1 & 0xFFFF_FFFF) + le32(-1 & 0xFFFF_FFFF)
            bytes += le32(streams.isEmpty || type != 5 ? -1 & 0xFFFF_FFFF : 1) + clsid
            return padded(bytes, to: 128)
        }
        var directory = entry("Root Entry", type: 5, clsid: rootCLSID ?? [UInt8](repeating: 0, count: 16))
        for name in streams { directory += entry(name, type: 2, clsid: [UInt8](repeating: 0, count: 16)) }
        return header + [UInt8](repeating: 0, count: 512 * directorySector) + padded(directory, to: 512)
    }

    // MARK: Corpus

    /// `../shared/corpus` beside the repository root (the root is two folders above this file's folder).
    static let corpusPath: String = {
        var components = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
        components.removeLast(3)
        return components.joined(separator: "/") + "/../shared/corpus"
    }()

    /// The bytes of a corpus file, or nil when it is not there.
    static func corpusFile(_ relativePath: String) -> [UInt8]? {
        FileManager.default.contents(atPath: corpusPath + "/" + relativePath).map { [UInt8]($0) }
    }
}
