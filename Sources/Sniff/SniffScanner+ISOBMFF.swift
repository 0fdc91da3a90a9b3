// Rule for ISO base media files (`ftyp` box): AVIF, HEIC, HEIF, QuickTime, MPEG-4 audio, 3GPP, MP4.

extension SniffScanner {
    private static let avifBrands: [StaticString] = ["avif", "avis"]
    private static let heicBrands: [StaticString] = ["heic", "heix", "heim", "heis", "hevc", "hevx"]
    private static let heifBrands: [StaticString] = ["mif1", "msf1"]
    private static let mp4AudioBrands: [StaticString] = ["M4A ", "M4B ", "M4P "]
    /// Brands (or brand prefixes) of plain MPEG-4 / ISO media. WHATWG accepts only the "mp4" prefix; the
    /// other common ISO brands are added so that files such as `isom`/`avc1` MP4s are not called binary.
    private static let mp4BrandPrefixes: [StaticString] = ["mp4", "iso", "avc1", "dash", "M4V", "f4v ", "mmp4", "MSNV"]

    /// What the brands of an `ftyp` box say, from most to least specific.
    private enum BrandClass {
        case avif, heic, heif, mp4
    }

    /// The WHATWG "signature for MP4" box walk, classifying the major brand first and then the compatible
    /// brands. Differences from WHATWG: a box that runs past an incomplete window is read up to the window
    /// (its remaining brands cannot be seen anyway), and image and other media brands are recognised.
    mutating func matchISOBaseMedia() -> Match? {
        guard let boxSize = uint32BE(0), matches("ftyp", at: 4), boxSize >= 16, boxSize % 4 == 0 else { return nil }
        if boxSize > count {
            // A complete resource that ends inside the box is not one; an incomplete one may still end there, so
            // the answer waits for the box's end (or a full window, past which the box cannot end in it).
            if isComplete { return nil }
            _ = has(min(boxSize, sniffWindowSize) - 1)
        }
        // Major brand.
        if brand(at: 8, isIn: Self.avifBrands) { return (.avif, "ftyp-avif") }
        if brand(at: 8, isIn: Self.heicBrands) { return (.heic, "ftyp-heic") }
        if matches("qt  ", at: 8) { return (.quickTime, "ftyp-qt") }
        if brand(at: 8, isIn: Self.mp4AudioBrands) { return (.mp4Audio, "ftyp-m4a") }
        if matches("3gp", at: 8) { return (.threeGPP, "ftyp-3gp") }
        if matches("3g2", at: 8) { return (.threeGPP2, "ftyp-3g2") }
        let majorIsHEIF = brand(at: 8, isIn: Self.heifBrands)
        let majorIsMP4 = brand(at: 8, isIn: Self.mp4BrandPrefixes)
        // Compatible brands (offset 12 is the minor version).
        var strongest: BrandClass? = majorIsHEIF ? .heif : majorIsMP4 ? .mp4 : nil
        var offset = 16
        while offset + 4 <= boxSize && has(offset, length: 4) {
            let found: BrandClass? =
                brand(at: offset, isIn: Self.avifBrands)
                ? .avif
                : brand(at: offset, isIn: Self.heicBrands)
                    ? .heic
                    : brand(at: offset, isIn: Self.heifBrands)
                        ? .heif
                        : brand(at: offset, isIn: Self.mp4BrandPrefixes) ? .mp4 : nil
            if let found, strongest.map({ Self.rank(found) < Self.rank($0) }) ?? true { strongest = found }
            offset += 4
        }
        // A video whose major brand is MP4 stays video even if it lists an image brand.
        if majorIsMP4 { return (.mp4, "ftyp-mp4") }
        switch strongest {
        case .avif: return (.avif, "ftyp-avif")
        case .heic: return (.heic, "ftyp-heic")
        case .heif: return (.heif, "ftyp-heif")
        case .mp4: return (.mp4, "ftyp-mp4")
        case nil: return nil
        }
    }

    /// Lower is more specific.
    private static func rank(_ brandClass: BrandClass) -> Int {
        switch brandClass {
        case .avif: 0
        case .heic: 1
        case .heif: 2
        case .mp4: 3
        }
    }

    /// Whether the four-byte brand at `offset` is, or starts with, one of `brands` (entries shorter than four
    /// bytes are prefixes).
    private mutating func brand(at offset: Int, isIn brands: [StaticString]) -> Bool {
        for brand in brands where matches(brand, at: offset) { return true }
        return false
    }
}
