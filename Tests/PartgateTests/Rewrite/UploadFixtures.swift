import Foundation

@testable import partgate

/// Files to upload: real small images (valid to the last checksum), an executable, and spoiled variants.
enum UploadFixtures {
    /// The 1×1 PNG `partgate demo`'s banner uploads.
    static let png = [UInt8](Data(base64Encoded: DemoCommand.avatarPNGBase64)!)

    /// A 1×1 GIF89a (global color table, graphic control extension, one image, trailer).
    static let gif = [UInt8](Data(base64Encoded: "R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7")!)

    /// A GIF polyglot: a complete GIF followed by script after its trailer (browsers sniffing HTML run it).
    static let gifPolyglot = gif + Array("<script>alert(document.domain)</script>".utf8)

    /// A PE executable: an MZ header whose e_lfanew points at `PE\0\0`.
    static let pe: [UInt8] = {
        var bytes = Array("MZ".utf8) + [UInt8](repeating: 0x90, count: 0x3A) + [0x40, 0, 0, 0]
        bytes += Array("PE".utf8) + [0, 0, 0x4C, 0x01, 3, 0]
        return bytes + [UInt8](repeating: 0, count: 512 - bytes.count)
    }()

    /// A PNG whose IDAT chunk announces and holds `dataBytes` bytes (framing valid up to that chunk's CRC):
    /// what a large photo looks like to the size cap, which fires before the walker reaches the CRC.
    static func largePNG(dataBytes: Int) -> [UInt8] {
        let signatureAndHeader = Array(png[0..<33])  // signature + IHDR with its CRC
        let length = [24, 16, 8, 0].map { UInt8(dataBytes >> $0 & 0xFF) }
        return signatureAndHeader + length + Array("IDAT".utf8) + [UInt8](repeating: 0x41, count: dataBytes)
            + [0, 0, 0, 0] + Array(png[(png.count - 12)...])
    }
}
