@testable import Multipart
import Testing

/// The canonical encoder: exact bytes, exact lengths, and the values it refuses to write.
@Suite("MultipartEncoder")
struct MultipartEncoderTests {
    static let b = Boundary("B")!

    /// Encodes parts with `encoder`, returning the body.
    static func encode(
        _ parts: [(PartHead, [UInt8])], with encoder: MultipartEncoder = MultipartEncoder(boundary: b)
    ) throws(MultipartEncodingError) -> [UInt8] {
        var encoder = encoder
        var body: [UInt8] = []
        for (head, data) in parts {
            try encoder.writePartHead(head, into: &body)
            body.write(data)
        }
        encoder.writeEnd(into: &body)
        return body
    }

    @Test func exactCanonicalBytes() throws {
        let body = try Self.encode([
            (PartHead(index: 0, name: "field"), Array("v".utf8)),
            (PartHead(index: 1, name: "file", filename: "a b.txt", contentType: "text/plain; charset=utf-8",
                      headers: [PartHeader(name: "x-FOO-bar", value: "1"), PartHeader(name: "content-ID", value: "")]),
             Array("line1\r\nline2".utf8)),
            (PartHead(index: 2, name: "empty", filename: ""), []),
        ])
        let expected = "--B\r\nContent-Disposition: form-data; name=\"field\"\r\n\r\nv"
            + "\r\n--B\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a b.txt\"\r\n"
            + "Content-Type: text/plain; charset=utf-8\r\nX-Foo-Bar: 1\r\nContent-Id: \r\n\r\nline1\r\nline2"
            + "\r\n--B\r\nContent-Disposition: form-data; name=\"empty\"; filename=\"\"\r\n\r\n"
            + "\r\n--B--\r\n"
        #expect(body == Array(expected.utf8))
    }

    @Test func emptyFormIsTheCloseDelimiterAlone() {
        var body: [UInt8] = []
        MultipartEncoder(boundary: Self.b).writeEnd(into: &body)
        #expect(body == Array("--B--\r\n".utf8))
        let length = try? MultipartEncoder(boundary: Self.b).encodedLength(of: [])
        #expect(length == 7)
    }

    @Test func headIgnoresIndexAndOffsetAndCountsParts() throws {
        var encoder = MultipartEncoder(boundary: Self.b)
        var first: [UInt8] = []
        try encoder.writePartHead(PartHead(index: 7, name: "a", offset: 99), into: &first)
        #expect(first == Array("--B\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n".utf8))
        var second: [UInt8] = []
        try encoder.writePartHead(PartHead(index: 0, name: "a"), into: &second)
        #expect(second == Array("\r\n".utf8) + first)
        #expect(encoder.partsWritten == 2)
    }

    @Test(arguments: [
        ("x-FOO-bar", "X-Foo-Bar"), ("content-md5", "Content-Md5"), ("X", "X"), ("x--y", "X--Y"),
        ("1abc-2DEF", "1abc-2def"), ("X_FOO", "X_foo"), ("-a", "-A"), ("ALREADY-Canonical", "Already-Canonical"),
    ])
    func canonicalFieldNames(name: String, canonical: String) {
        #expect(MultipartEncoder.canonicalFieldName(name) == Array(canonical.utf8))
    }

    @Test func encodedLengthMatchesTheBytesWritten() throws {
        var random = SplitMix64(seed: 0x1E_46_7A)
        let names = ["a", "pr\u{E9}nom", "\u{1F600} emoji", "x y;z='", "long-" + String(repeating: "n", count: 300)]
        for iteration in 0..<300 {
            let boundary = Boundary.random(using: &random)
            let count = Int.random(in: 0...6, using: &random)
            var parts: [(head: PartHead, dataLength: Int64)] = []
            var bodyParts: [(PartHead, [UInt8])] = []
            for index in 0..<count {
                var head = PartHead(index: index, name: names.randomElement(using: &random)!)
                if Bool.random(using: &random) { head.filename = ["", "f.txt", "r\u{E9}sum\u{E9}.pdf"].randomElement(using: &random)! }
                if Bool.random(using: &random) { head.contentType = ["text/plain", "image/png; x=\"a b\""].randomElement(using: &random)! }
                if Int.random(in: 0..<4, using: &random) == 0 { head.headers = [PartHeader(name: "x-id", value: "\(index)")] }
                let data = [UInt8](repeating: 0x2D, count: Int.random(in: 0...3000, using: &random))
                parts.append((head, Int64(data.count)))
                bodyParts.append((head, data))
            }
            let encoder = MultipartEncoder(boundary: boundary)
            let body = try Self.encode(bodyParts, with: encoder)
            #expect(try encoder.encodedLength(of: parts) == Int64(body.count), "iteration \(iteration)")
            var counter = ByteCounter()
            var counting = encoder
            for part in parts { try counting.writePartHead(part.head, into: &counter) }
            counting.writeEnd(into: &counter)
            #expect(counter.count + parts.reduce(0) { $0 + $1.dataLength } == Int64(body.count))
        }
    }

    @Test func contentTypeParsesBackToTheSameBoundary() throws {
        for text in ["B", "partgate-0123456789abcdef0123456789abcdef", "a b", "a:b", "x?y=z", "(paren)", "a'b+c",
                     "'()+_,-./:=? 0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQ"] {
            let boundary = try #require(Boundary(text))
            let encoder = MultipartEncoder(boundary: boundary)
            #expect(try MultipartContentType.parse(encoder.contentType).boundary == boundary, "\(encoder.contentType)")
        }
        let fresh = MultipartEncoder()
        #expect(try MultipartContentType.parse(fresh.contentType).boundary == fresh.boundary)
        #expect(fresh.boundary != MultipartEncoder().boundary)
    }
}

/// Values with no safe spelling: the encoder throws and writes nothing.
extension MultipartEncoderTests {
    static let unsafe = [
        "a\"b", "\"", "a\\b", "a\rb", "a\nb", "\r\n", "a%22b", "%22", "ab%22", "a%0db", "a%0Db", "a%0ab", "a%0Ab",
        "a\u{0}b", "a\u{1}b", "a\u{1F}b", "a\u{7F}b", "\u{1B}[31m",
    ]
    static let safe = ["a%2", "%", "100%", "a%41b", "a%2Xb", "a%0", "%0g", "tab\there", "pr\u{E9}nom", "\u{2603}",
                       "\u{1F600}", "a b", ";=,", "'", " ", "\u{85}next-line"]

    /// Expects `head` to be refused with `code`, with nothing written and the encoder unchanged.
    static func refuses(_ head: PartHead, _ code: MultipartEncodingError.Code, value: String,
                        sourceLocation: SourceLocation = #_sourceLocation) {
        var encoder = MultipartEncoder(boundary: b)
        var sink: [UInt8] = []
        #expect(throws: MultipartEncodingError(code, value: value), sourceLocation: sourceLocation) {
            try encoder.writePartHead(head, into: &sink)
        }
        #expect(sink.isEmpty, sourceLocation: sourceLocation)
        #expect(encoder.partsWritten == 0, sourceLocation: sourceLocation)
        #expect(throws: MultipartEncodingError(code, value: value), sourceLocation: sourceLocation) {
            try encoder.encodedLength(of: [(head, 0)])
        }
        // The next good part is still the first: no leading CRLF.
        try? encoder.writePartHead(PartHead(index: 0, name: "ok"), into: &sink)
        #expect(sink.starts(with: Array("--B\r\n".utf8)), sourceLocation: sourceLocation)
    }

    @Test func unsafeNamesAndFilenamesAreRefused() {
        for value in Self.unsafe {
            Self.refuses(PartHead(index: 0, name: value), .unsafeName, value: value)
            Self.refuses(PartHead(index: 0, name: "ok", filename: value), .unsafeFilename, value: value)
        }
    }

    @Test func emptyNameIsRefused() {
        Self.refuses(PartHead(index: 0, name: ""), .emptyName, value: "")
        Self.refuses(PartHead(index: 0, name: "", filename: "\""), .emptyName, value: "")
    }

    @Test func invalidContentTypeAndHeadersAreRefused() {
        Self.refuses(PartHead(index: 0, name: "a", contentType: ""), .invalidHeaderValue, value: "")
        Self.refuses(PartHead(index: 0, name: "a", contentType: "text/plain\r\nX: y"), .invalidHeaderValue,
                     value: "text/plain\r\nX: y")
        for name in ["", "X Foo", "X:Foo", "X-F\u{E9}", "X\r\nY"] {
            Self.refuses(PartHead(index: 0, name: "a", headers: [PartHeader(name: name, value: "v")]),
                         .invalidHeaderName, value: name)
        }
        for value in ["a\nb", "a\rb", "\u{0}", "a\u{7F}"] {
            Self.refuses(PartHead(index: 0, name: "a", headers: [PartHeader(name: "X-Ok", value: "v"),
                                                                  PartHeader(name: "X-Bad", value: value)]),
                         .invalidHeaderValue, value: value)
        }
    }

    @Test func safeNamesAndFilenamesAreWrittenRawAndParseBack() throws {
        var parts: [(PartHead, [UInt8])] = []
        for (index, value) in Self.safe.enumerated() {
            parts.append((PartHead(index: 2 * index, name: value), []))
            parts.append((PartHead(index: 2 * index + 1, name: "f", filename: value), []))
        }
        let body = try Self.encode(parts)
        let text = String(decoding: body, as: UTF8.self)
        for value in Self.safe { #expect(text.contains("; name=\"\(value)\"\r\n") && text.contains("; filename=\"\(value)\"\r\n")) }
        let outcome = SplitFeeder.parse(body, boundary: "B", strictness: .rejectingEverything)
        #expect(outcome.error == nil)
        #expect(outcome.heads.map(\.name) == parts.map(\.0.name))
        #expect(outcome.heads.map(\.filename) == parts.map(\.0.filename))
    }

    @Test func describesTheError() {
        #expect(MultipartEncodingError(.unsafeName, value: "a\"b").description == "unsafe_name: \"a\\\"b\"")
    }
}

@Suite("MultipartEncoder reserved headers")
struct MultipartEncoderReservedHeaderTests {
    @Test(arguments: ["Content-Disposition", "content-type", "CONTENT-TRANSFER-ENCODING"])
    func keptHeadersCannotUseReservedNames(name: String) {
        var encoder = MultipartEncoder(boundary: Boundary("b")!)
        var out: [UInt8] = []
        let head = PartHead(index: 0, name: "a", headers: [PartHeader(name: name, value: "form-data; name=\"evil\"")])
        #expect(throws: MultipartEncodingError(.invalidHeaderName, value: name)) {
            try encoder.writePartHead(head, into: &out)
        }
        #expect(out.isEmpty)
    }

    @Test func directDispositionParserNamesControlCharacters() {
        #expect(throws: MultipartError(.flag(.headerCTL), offset: 18)) {
            try ContentDisposition.parse("form-data; name=\"a\u{1}\"")
        }
    }
}
