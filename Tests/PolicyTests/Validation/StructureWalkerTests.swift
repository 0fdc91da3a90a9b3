import Sniff
import Testing

@testable import Policy

@Suite("StructureWalker")
struct StructureWalkerTests {
    enum Format: String, CaseIterable, Sendable, CustomStringConvertible {
        case png, jpeg, gif, webp, pdf

        var type: SniffedType {
            switch self {
            case .png: return .png
            case .jpeg: return .jpeg
            case .gif: return .gif
            case .webp: return .webp
            case .pdf: return .pdf
            }
        }

        var sample: [UInt8] {
            switch self {
            case .png: return FileFixtures.png()
            case .jpeg: return FileFixtures.jpeg()
            case .gif: return FileFixtures.gif()
            case .webp: return FileFixtures.webp()
            case .pdf: return FileFixtures.pdf()
            }
        }

        var description: String { rawValue }
    }

    /// Feeds `bytes` cut at `cuts` and returns the verdict.
    static func verdict(_ format: Format, _ bytes: [UInt8], cuts: [Int] = []) -> StructureVerdict {
        var walker = StructureWalker(for: format.type)!
        var start = 0
        for end in cuts + [bytes.count] where end >= start {
            Array(bytes[start..<end]).withUnsafeBytes { walker.feed($0) }
            start = end
        }
        return walker.finish()
    }

    @Test func crc32MatchesTheCheckValue() {
        var crc = CRC32()
        Array("123456789".utf8).withUnsafeBytes { crc.update($0) }
        #expect(crc.value == 0xCBF4_3926)
    }

    @Test(arguments: Format.allCases)
    func validFilesAreValidWhateverTheSplit(format: Format) {
        let sample = format.sample
        #expect(MIMESniffer.sniff(sample, complete: true).type == format.type)
        #expect(Self.verdict(format, sample) == .valid)
        #expect(Self.verdict(format, sample, cuts: Array(1..<sample.count)) == .valid, "byte by byte")
        for cut in 0...sample.count {
            #expect(Self.verdict(format, sample, cuts: [cut]) == .valid, "split at \(cut)")
        }
        for first in stride(from: 0, to: sample.count, by: 7) {
            for second in stride(from: first, to: sample.count, by: 11) {
                #expect(Self.verdict(format, sample, cuts: [first, second]) == .valid, "split at \(first), \(second)")
            }
        }
    }

    @Test(arguments: Format.allCases)
    func appendedBytesMakeAPolyglot(format: Format) {
        for trailer in [FileFixtures.zip, FileFixtures.script, FileFixtures.php, [0x00, 0x41]] {
            let polyglot = format.sample + trailer
            guard case .invalid(let reason) = Self.verdict(format, polyglot) else {
                Issue.record("\(format) + \(trailer.count) bytes passed")
                continue
            }
            #expect(reason.contains("after") || reason.contains("data"), "\(reason)")
            for cut in stride(from: 0, through: polyglot.count, by: 3) {
                #expect(Self.verdict(format, polyglot, cuts: [cut]) == .invalid(reason), "split at \(cut)")
            }
        }
    }

    @Test(arguments: [Format.png, .jpeg, .gif, .webp])
    func aFailureAfterTheEndIsKnownAtTheFirstExtraByte(format: Format) {
        var walker = StructureWalker(for: format.type)!
        format.sample.withUnsafeBytes { walker.feed($0) }
        #expect(walker.failure == nil)
        [UInt8(0x3C)].withUnsafeBytes { walker.feed($0) }
        #expect(walker.failure != nil)
    }

    @Test(arguments: [Format.png, .jpeg, .gif, .webp])
    func everyTruncationIsInvalid(format: Format) {
        let sample = format.sample
        for length in 0..<sample.count {
            if case .valid = Self.verdict(format, Array(sample[0..<length])) {
                Issue.record("\(format) cut to \(length) of \(sample.count) bytes passed")
            }
        }
    }

    @Test func aPDFCutAfterAnEarlierEOFIsAnEarlierRevisionButNotAFragment() {
        let sample = FileFixtures.pdf()
        #expect(Self.verdict(.pdf, Array(sample.dropLast(3))) == .invalid("data after the PDF's last %%EOF marker"))
        #expect(Self.verdict(.pdf, Array(sample[0..<12])) == .invalid("a PDF without a %%EOF marker"))
        #expect(Self.verdict(.pdf, Array(sample[0..<5])) == .invalid("the PDF ends inside its header"))
        #expect(Self.verdict(.pdf, sample + Array(" \r\n\t\0\u{0C}".utf8)) == .valid)
        #expect(Self.verdict(.pdf, Array("%PDF-x.7\n%%EOF".utf8)) == .invalid("not a %PDF-n.n header"))
    }

    @Test func gifHeaderFollowedByScriptIsNotAGIF() {
        let polyglot = FileFixtures.ascii("GIF89a/*") + FileFixtures.ascii("*/=1;") + FileFixtures.script
        #expect(MIMESniffer.sniff(polyglot, complete: true).type == .gif)
        #expect(Self.verdict(.gif, polyglot) == .invalid("a byte that starts no GIF block"))
        let header = FileFixtures.ascii("GIF89a<script>alert(1)</script>")
        #expect(Self.verdict(.gif, header) == .invalid("a byte that starts no GIF block"))
    }

    @Test func pngCorruptionIsCaughtByTheCRCOrTheFraming() {
        let sample = FileFixtures.png()
        for index in 8..<sample.count {
            var corrupt = sample
            corrupt[index] ^= 0x01
            if case .valid = Self.verdict(.png, corrupt) { Issue.record("flipping byte \(index) passed") }
        }
    }

    @Test func pngRulesOnChunkOrder() {
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        let ihdr = FileFixtures.pngChunk("IHDR", FileFixtures.be32(1) + FileFixtures.be32(1) + [8, 0, 0, 0, 0])
        let idat = FileFixtures.pngChunk("IDAT", [1, 2, 3])
        let iend = FileFixtures.pngChunk("IEND", [])
        #expect(Self.verdict(.png, signature + ihdr + idat + iend) == .valid)
        #expect(Self.verdict(.png, signature + idat + ihdr + iend) == .invalid("a PNG whose first chunk is not IHDR"))
        #expect(Self.verdict(.png, signature + ihdr + iend) == .invalid("an IEND chunk before any IDAT"))
        #expect(
            Self.verdict(.png, signature + ihdr + idat + FileFixtures.pngChunk("IEND", [0]))
                == .invalid("an IEND chunk with data"))
        #expect(
            Self.verdict(.png, signature + ihdr + FileFixtures.pngChunk("ID4T", [1]) + idat + iend)
                == .invalid("a PNG chunk type that is not four letters"))
    }

    @Test func jpegRulesOnMarkers() {
        let sample = FileFixtures.jpeg()
        #expect(Self.verdict(.jpeg, sample + [0xFF, 0xD9]) == .invalid("data after the JPEG EOI marker"))
        #expect(Self.verdict(.jpeg, [0xFF, 0xD8, 0xFF, 0xD9]) == .invalid("a JPEG EOI before any scan"))
        #expect(Self.verdict(.jpeg, [0xFF, 0xD8, 0xFF, 0xD8]) == .invalid("a second JPEG SOI marker"))
        #expect(Self.verdict(.jpeg, [0xFF, 0xD8, 0x41]) == .invalid("a byte where a JPEG marker belongs"))
        #expect(Self.verdict(.jpeg, [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x01]) == .invalid("a JPEG segment length under 2"))
        #expect(
            Self.verdict(.jpeg, [0xFF, 0xD8, 0xFF, 0xDA, 0x00, 0x02, 0xFF, 0xD9])
                == .invalid("a JPEG scan before any frame header"))
        // Fill bytes before a marker are allowed.
        #expect(Self.verdict(.jpeg, Array(sample.dropLast(2)) + [0xFF, 0xFF, 0xFF, 0xD9]) == .valid)
    }

    @Test func webpSizeMustMatchThePart() {
        var longer = FileFixtures.webp()
        longer.replaceSubrange(4..<8, with: FileFixtures.le32(4 + 8 + 26 + 8))
        guard case .invalid(let reason) = Self.verdict(.webp, longer) else {
            Issue.record("a RIFF size past the part passed")
            return
        }
        #expect(reason.contains("RIFF size"))
        var vp8x = FileFixtures.webp()
        vp8x.replaceSubrange(12..<16, with: FileFixtures.ascii("ICCP"))
        #expect(Self.verdict(.webp, vp8x) == .invalid("a WebP whose first chunk is not VP8, VP8L or VP8X"))
    }

    @Test func onlyTheFiveFormatsHaveWalkers() {
        #expect(StructureWalker.validatedTypes.allSatisfy { StructureWalker(for: $0) != nil })
        #expect(StructureWalker(for: .bmp) == nil)
        #expect(StructureWalker(for: .zip) == nil)
        #expect(StructureWalker(for: .plainText) == nil)
    }

    /// The PDF rule stated plainly: after the header, the last `%%EOF` is followed by whitespace only.
    static func referencePDFVerdict(_ bytes: [UInt8]) -> Bool {
        let body = Array(bytes.dropFirst(8))
        let marker = Array("%%EOF".utf8)
        guard body.count >= 5,
            let last = (0...(body.count - 5)).last(where: { Array(body[$0..<($0 + 5)]) == marker })
        else { return false }
        return body[(last + 5)...].allSatisfy { [0, 9, 10, 12, 13, 32].contains($0) }
    }

    @Test func pdfMarkersAreFoundAcrossAnySplit() {
        var generator = SplitMix(seed: 0x9DF)
        let alphabet = Array("%%%EOF \nx".utf8)
        for _ in 0..<2000 {
            let length = Int(generator.next() % 24)
            let tail = (0..<length).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] }
            let bytes = Array("%PDF-1.4".utf8) + tail
            let expected: StructureVerdict =
                Self.referencePDFVerdict(bytes)
                ? .valid
                : (bytes.count < 13 || !Self.containsMarker(tail)
                    ? .invalid("a PDF without a %%EOF marker") : .invalid("data after the PDF's last %%EOF marker"))
            #expect(Self.verdict(.pdf, bytes) == expected, "\(String(decoding: tail, as: UTF8.self).debugDescription)")
            #expect(Self.verdict(.pdf, bytes, cuts: Array(1..<bytes.count)) == expected)
            let cut = Int(generator.next() % UInt64(bytes.count + 1))
            #expect(Self.verdict(.pdf, bytes, cuts: [cut]) == expected)
        }
    }

    static func containsMarker(_ bytes: [UInt8]) -> Bool {
        let marker = Array("%%EOF".utf8)
        return bytes.count >= 5 && (0...(bytes.count - 5)).contains { Array(bytes[$0..<($0 + 5)]) == marker }
    }
}
