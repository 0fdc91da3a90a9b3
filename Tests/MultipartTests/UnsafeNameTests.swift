@testable import Multipart
import Testing

/// The name and filename spellings the real-world proof suite (`proof/`, docs/proof.md) found read differently by
/// formidable than by Werkzeug and python-multipart: HTML character references, U+2028/U+2029, and `name=`.
@Suite("UnsafeName")
struct UnsafeNameTests {
    /// Each found differential, and what the replacement makes of it.
    static let found: [(String, String)] = [
        ("&#9731;.txt", "_#9731;.txt"),  // formidable: "☃.txt"
        ("x&#0034;y.txt", "x_#0034;y.txt"),  // formidable: "x\"y.txt"
        ("a&#x41;", "a_#x41;"),
        ("8\u{2028}97", "8_97"),  // formidable: no filename at all
        ("p\u{2029}q", "p_q"),
        ("a; filename=x.txt; b", "a; filename_x.txt; b"),  // formidable: a file named "x.txt"
        ("FileName=y", "FileName_y"),
        ("name=other", "name_other"),
    ]

    @Test(arguments: found)
    func foundDifferentialsAreUnsafeAndReplaced(input: String, replaced: String) {
        #expect(!UnsafeName.isSafe(input))
        let output = String(decoding: UnsafeName.replacingUnsafe(in: Array(input.utf8)), as: UTF8.self)
        #expect(output == replaced)
        #expect(UnsafeName.isSafe(output))
        #expect(UnsafeName.replacingUnsafe(in: Array(output.utf8)) == Array(output.utf8))
    }

    @Test(arguments: ["a&b", "&#", "&#;", "AT&T", "#1", "a=b", "names", "nam=e", "rename_me", "\u{2027}", "\u{202F}",
                      "☃", "a; b", "name", "=name"])
    func nearMissesStaySafe(input: String) {
        #expect(UnsafeName.isSafe(input))
        #expect(UnsafeName.replacingUnsafe(in: Array(input.utf8)) == Array(input.utf8))
    }

    @Test func firstUnsafeIndexPointsAtTheSequence() {
        #expect(UnsafeName.firstUnsafeIndex(in: Array("ab&#1".utf8)) == 2)
        #expect(UnsafeName.firstUnsafeIndex(in: Array("x name=1".utf8)) == 2)
        #expect(UnsafeName.firstUnsafeIndex(in: Array("é\u{2028}".utf8)) == 2)
    }

    @Test(arguments: found)
    func encoderRefusesThem(input: String, replaced: String) throws {
        var encoder = MultipartEncoder(boundary: Boundary("B")!)
        var sink: [UInt8] = []
        #expect(throws: MultipartEncodingError(.unsafeName, value: input)) {
            try encoder.writePartHead(PartHead(index: 0, name: input), into: &sink)
        }
        #expect(throws: MultipartEncodingError(.unsafeFilename, value: input)) {
            try encoder.writePartHead(PartHead(index: 0, name: "f", filename: input), into: &sink)
        }
        #expect(sink.isEmpty)
        try encoder.writePartHead(PartHead(index: 0, name: replaced, filename: replaced), into: &sink)
        #expect(!sink.isEmpty)
    }

    /// The parser takes the general path for them (the one-pass fast path bails out on `&` and `=`) and raises
    /// `unsafe_name` / `unsafe_filename`, or replaces them when the flag normalises.
    @Test(arguments: found)
    func parserFlagsThem(input: String, replaced: String) throws {
        let name = PartHeaderTests.body("Content-Disposition: form-data; name=\"\(input)\"")
        #expect(SplitFeeder.verify(name, boundary: "b").error?.reason == .flag(.unsafeName))
        let filename = PartHeaderTests.body("Content-Disposition: form-data; name=\"f\"; filename=\"\(input)\"")
        #expect(SplitFeeder.verify(filename, boundary: "b").error?.reason == .flag(.unsafeFilename))
        let normalized = SplitFeeder.verify(filename, boundary: "b",
                                            strictness: try Strictness([.unsafeFilename: .normalize]))
        #expect(normalized.error == nil)
        #expect(normalized.parts.first?.head.filename == replaced)
    }
}
