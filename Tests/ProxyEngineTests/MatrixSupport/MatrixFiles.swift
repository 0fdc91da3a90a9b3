/// Files for the engine's policy matrix, built here (independent of the policy tests' fixtures): PNGs that
/// pass structure validation, a PNG/ZIP polyglot that fails it, and a PE executable.
enum MatrixFiles {
    static func be32(_ value: Int) -> [UInt8] { (0..<4).reversed().map { UInt8(value >> (8 * $0) & 0xFF) } }

    /// CRC-32 (IEEE, reflected), bit by bit.
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typeBytes = Array(type.utf8)
        return be32(data.count) + typeBytes + data + be32(Int(crc32(typeBytes + data)))
    }

    /// Filler bytes in 0x20...0x7F.
    static func filler(_ count: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: ($0 &* 31) &+ 7) & 0x7F | 0x20 }
    }

    /// A 16×16 PNG whose IDAT holds `idatBytes` bytes (framing and CRCs valid; the walker does not inflate).
    static func png(idatBytes: Int) -> [UInt8] {
        [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", be32(16) + be32(16) + [8, 2, 0, 0, 0])
            + chunk("IDAT", filler(idatBytes)) + chunk("IEND", [])
    }

    /// Shorter than the 1445-byte sniff window.
    static let smallPNG = png(idatBytes: 40)
    /// Longer than the sniff window.
    static let largePNG = png(idatBytes: 3000)
    /// A PNG with a ZIP local file header after IEND.
    static let polyglot = smallPNG + [0x50, 0x4B, 0x03, 0x04, 20, 0, 0, 0, 0, 0] + Array("payload.php<?php ?>".utf8)

    /// A PE executable: MZ header whose e_lfanew points at `PE\0\0`.
    static let pe: [UInt8] = {
        var bytes = [UInt8](repeating: 0, count: 512)
        bytes[0] = 0x4D
        bytes[1] = 0x5A
        bytes[0x3C] = 0x80
        bytes[0x80] = 0x50
        bytes[0x81] = 0x45
        return bytes
    }()
}
