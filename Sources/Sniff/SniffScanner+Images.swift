// Rules for raster images: the WHATWG image table plus TIFF, JPEG XL and Photoshop.

extension SniffScanner {
    private static let iconMagic: [UInt8] = [0x00, 0x00, 0x01, 0x00]
    private static let cursorMagic: [UInt8] = [0x00, 0x00, 0x02, 0x00]
    private static let pngMagic: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    private static let jpegMagic: [UInt8] = [0xFF, 0xD8, 0xFF]
    private static let tiffMagics: [[UInt8]] = [
        [0x49, 0x49, 0x2A, 0x00], [0x4D, 0x4D, 0x00, 0x2A],  // TIFF, little and big endian
        [0x49, 0x49, 0x2B, 0x00], [0x4D, 0x4D, 0x00, 0x2B],  // BigTIFF
    ]
    private static let jpegXLCodestreamMagic: [UInt8] = [0xFF, 0x0A]
    private static let jpegXLContainerMagic: [UInt8] = [
        0x00, 0x00, 0x00, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A,
    ]
    /// BITMAPCOREHEADER, OS/2 v2 (short and full), BITMAPINFOHEADER, v2, v3, v4 and v5 header sizes.
    private static let bitmapHeaderSizes: [Int] = [12, 16, 64, 40, 52, 56, 108, 124]

    /// ICO/CUR, BMP, GIF, WebP, PNG, JPEG (the WHATWG table, in its order), then TIFF, JPEG XL, Photoshop.
    mutating func matchImage() -> Match? {
        if matches(Self.iconMagic, at: 0) || matches(Self.cursorMagic, at: 0) { return (.icon, "ico") }
        if matchesBitmap() { return (.bmp, "bmp") }
        if matches("GIF87a", at: 0) || matches("GIF89a", at: 0) { return (.gif, "gif") }
        if matches("RIFF", at: 0) && matches("WEBPVP", at: 8) { return (.webp, "webp") }
        if matches(Self.pngMagic, at: 0) { return (.png, "png") }
        if matches(Self.jpegMagic, at: 0) { return (.jpeg, "jpeg") }
        for magic in Self.tiffMagics where matches(magic, at: 0) { return (.tiff, "tiff") }
        if matches(Self.jpegXLCodestreamMagic, at: 0) || matches(Self.jpegXLContainerMagic, at: 0) {
            return (.jpegXL, "jxl")
        }
        if matches("8BPS", at: 0), let version = uint16BE(4), version == 1 || version == 2 {
            return (.photoshop, "psd")
        }
        return nil
    }

    /// `BM` plus a known DIB header size at offset 14. WHATWG checks `BM` alone, which calls any text starting
    /// with "BM" an image; the header size check keeps text out while accepting every real bitmap version.
    private mutating func matchesBitmap() -> Bool {
        guard matches("BM", at: 0), let headerSize = uint32LE(14) else { return false }
        return Self.bitmapHeaderSizes.contains(headerSize)
    }
}
