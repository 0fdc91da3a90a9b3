import Sniff
import Testing

/// Text versus binary, and text that merely starts like a binary signature.
extension MIMESnifferTests {
    /// WHATWG binary data bytes: 0x00-0x08, 0x0B, 0x0E-0x1A, 0x1C-0x1F.
    static let binaryDataBytes: [UInt8] = Array(0x00...0x08) + [0x0B] + Array(0x0E...0x1A) + Array(0x1C...0x1F)

    @Test func eachBinaryDataByteMakesBinary() {
        for value in Self.binaryDataBytes {
            let result = sniff(Fixture.ascii("some text ") + [value] + Fixture.ascii(" more"))
            #expect(result.type == .octetStream, "byte \(value)")
            #expect(result.category == .binary)
        }
    }

    @Test func otherControlAndHighBytesStayText() {
        let allowed = (0...255).map(UInt8.init).filter { !Self.binaryDataBytes.contains($0) }
        #expect(allowed.count == 256 - 27)
        for value in allowed {
            let result = sniff(Fixture.ascii("some text ") + [value] + Fixture.ascii(" more"))
            #expect(result.type == .plainText, "byte \(value)")
        }
        #expect(sniff(Fixture.ascii("caf\u{E9} \u{1F600}\n")).type == .plainText, "UTF-8")
    }

    @Test(arguments: [
        "BMW drivers are rarely seen at the library, but when they are, they read about engines.",
        "OTTO was here and he left a note that is long enough to cover a font header.",
        "ID3 tags are metadata containers for MP3 files, described at length in this note.",
        ".snd files are old Sun audio; this note merely mentions them in passing.",
        "wOFF! said the dog, loudly, to nobody in particular, at three in the morning.",
        "FWS: a three-letter acronym that this note does not bother to expand.",
        "I'm free to write whatever I want here, including box names like moov and mdat.",
        "truely, this is text and not a TrueType font, whatever its first four letters say.",
        "BZh9 is what bzip2 writes first, but this is just a sentence about it.",
        "MZ Sample text: no DOS header hides in this sentence, only letters and spaces.",
        "GIF8 alone is not a GIF signature, nor is RIFF without a chunk type.",
        "8BPS Photoshop files need a version field, which text does not have here.",
    ])
    func textThatStartsLikeASignatureIsText(_ sentence: String) {
        #expect(sniff(Fixture.ascii(sentence)).type == .plainText)
    }

    @Test func byteOrderMarksAreText() {
        #expect(sniff([0xFE, 0xFF]).signature == "bom-utf16be")
        #expect(sniff([0xFF, 0xFE, 0x00, 0x00]).signature == "bom-utf16le", "UTF-32LE text is text too")
        #expect(sniff([0xEF, 0xBB, 0xBF]).signature == "bom-utf8")
        #expect(sniff([0xEF, 0xBB]).type == .plainText)
        #expect(sniff([0xEF, 0xBB], complete: false).isFinal == false)
    }
}
