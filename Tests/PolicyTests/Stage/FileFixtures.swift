@testable import Policy

/// Small but structurally complete files of the formats `validate` walks, and ways to spoil them.
enum FileFixtures {
    static func be32(_ value: Int) -> [UInt8] { (0..<4).reversed().map { UInt8(value >> (8 * $0) & 0xFF) } }
    static func le32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8(value >> (8 * $0) & 0xFF) } }
    static func be16(_ value: Int) -> [UInt8] { [UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
    static func ascii(_ text: String) -> [UInt8] { Array(text.utf8) }

    /// Deterministic filler bytes in 0x20...0x7F (no CR, no 0xFF).
    static func filler(_ count: Int, seed: UInt8 = 7) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: ($0 &* 31) &+ Int(seed)) & 0x7F | 0x20 }
    }

    /// One PNG chunk with its CRC.
    static func pngChunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        var crc = CRC32()
        let typeBytes = ascii(type)
        typeBytes.withUnsafeBytes { crc.update($0) }
        data.withUnsafeBytes { crc.update($0) }
        return be32(data.count) + typeBytes + data + be32(Int(crc.value))
    }

    /// A 16×16 PNG whose IDAT holds `idatBytes` bytes (not a real deflate stream: the walker checks framing).
    static func png(idatBytes: Int = 40) -> [UInt8] {
        let ihdr = be32(16) + be32(16) + [8, 2, 0, 0, 0]
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + pngChunk("IHDR", ihdr)
            + pngChunk("tEXt", ascii("Comment\0made by a test"))
            + pngChunk("IDAT", filler(idatBytes)) + pngChunk("IEND", [])
    }

    /// A baseline JPEG: APP0, DQT, SOF0, DHT, SOS, entropy data with stuffing and a restart marker, EOI.
    static func jpeg(scanBytes: Int = 60) -> [UInt8] {
        var scan = filler(scanBytes)
        scan.insert(contentsOf: [0xFF, 0x00], at: scan.count / 3)
        scan.insert(contentsOf: [0xFF, 0xD3], at: 2 * scan.count / 3)
        return [0xFF, 0xD8]
            + [0xFF, 0xE0] + be16(16) + ascii("JFIF\0") + [1, 1, 0, 0, 1, 0, 1, 0, 0]
            + [0xFF, 0xE1] + be16(2 + 12) + ascii("Exif\0\0") + [0xFF, 0xD8, 0xFF, 0xD9, 0, 0]  // a thumbnail's markers
            + [0xFF, 0xDB] + be16(67) + [0] + filler(64)
            + [0xFF, 0xC0] + be16(17) + [8] + be16(16) + be16(16) + [3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]
            + [0xFF, 0xC4] + be16(31) + [0] + filler(28)
            + [0xFF, 0xDA] + be16(12) + [3, 1, 0, 2, 0x11, 3, 0x11, 0, 0x3F, 0]
            + scan + [0xFF, 0xD9]
    }

    /// A GIF89a with a global color table, a graphic control extension and one image of `imageBytes` LZW bytes.
    static func gif(imageBytes: Int = 30) -> [UInt8] {
        var blocks: [UInt8] = []
        var left = imageBytes
        while left > 0 {
            let size = min(255, left)
            blocks += [UInt8(size)] + filler(size)
            left -= size
        }
        return ascii("GIF89a") + [16, 0, 16, 0, 0x80, 0, 0] + [0, 0, 0, 255, 255, 255]
            + [0x21, 0xF9, 4, 0, 0, 0, 0, 0]
            + [0x2C, 0, 0, 0, 0, 16, 0, 16, 0, 0] + [2] + blocks + [0] + [0x3B]
    }

    /// A lossless WebP with one VP8L chunk of `chunkBytes` (odd sizes get their pad byte).
    static func webp(chunkBytes: Int = 25) -> [UInt8] {
        let chunk =
            ascii("VP8L") + le32(chunkBytes) + [0x2F] + filler(chunkBytes - 1) + (chunkBytes % 2 == 1 ? [0] : [])
        return ascii("RIFF") + le32(4 + chunk.count) + ascii("WEBP") + chunk
    }

    /// A minimal PDF with an incremental update (two %%EOF markers).
    static func pdf(padding: Int = 0) -> [UInt8] {
        ascii("%PDF-1.7\n%\u{00E2}\u{00E3}\n1 0 obj\n<< /Type /Catalog >>\nendobj\n")
            + filler(padding)
            + ascii("\nxref\n0 1\ntrailer\n<< /Root 1 0 R >>\nstartxref\n9\n%%EOF\n")
            + ascii("2 0 obj\n<< >>\nendobj\nstartxref\n60\n%%EOF\r\n")
    }

    /// A PE executable: an MZ header whose e_lfanew points at `PE\0\0`.
    static func pe(size: Int = 300) -> [UInt8] {
        var bytes = ascii("MZ") + [UInt8](repeating: 0x90, count: 0x3A) + le32(0x40)
        bytes += ascii("PE") + [0, 0, 0x4C, 0x01, 3, 0]
        return bytes + [UInt8](repeating: 0, count: max(0, size - bytes.count))
    }

    /// A ZIP local file header, as appended to make PNG/ZIP polyglots.
    static let zip: [UInt8] =
        [0x50, 0x4B, 0x03, 0x04, 20, 0, 0, 0, 0, 0] + ascii("payload.php<?php system($_GET['c']); ?>")
    static let script = ascii("<script>alert(document.domain)</script>")
    static let php = ascii("<?php echo shell_exec($_GET['c']); ?>")
}
