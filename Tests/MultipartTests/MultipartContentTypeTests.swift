import Multipart
import Testing

/// The request Content-Type parser: every accepted form and every flag with its offset in the value.
@Suite("MultipartContentType")
struct MultipartContentTypeTests {
    static let seventy = String(repeating: "a", count: 69) + "z"

    /// Parses through both entry points (String and bytes) and checks they agree.
    static func parse(_ value: String) throws(MultipartError) -> MultipartContentType {
        let viaString = result { () throws(MultipartError) in try MultipartContentType.parse(value) }
        var viaBytes: Result<MultipartContentType, MultipartError>?
        // One byte past the end that a correct parser never reads.
        (Array(value.utf8) + [0]).withUnsafeBytes { bytes in
            viaBytes = result { () throws(MultipartError) in
                try MultipartContentType.parse(UnsafeRawBufferPointer(rebasing: bytes.dropLast()))
            }
        }
        #expect(viaString == viaBytes, "String and byte entry points disagree on \(value.debugDescription)")
        return try viaString.get()
    }

    static func result(
        _ body: () throws(MultipartError) -> MultipartContentType
    ) -> Result<MultipartContentType, MultipartError> {
        do {
            return .success(try body())
        } catch {
            return .failure(error)
        }
    }

    @Test(arguments: [
        ("multipart/form-data; boundary=abc", "abc"),
        ("multipart/form-data;boundary=abc", "abc"),
        ("Multipart/Form-Data; BOUNDARY=AbC", "AbC"),
        ("MULTIPART/FORM-DATA; BoUnDaRy=\"a b\"", "a b"),
        ("multipart/form-data; boundary=\"abc\"", "abc"),
        ("multipart/form-data; boundary=\"'()+_,-./:=? x\"", "'()+_,-./:=? x"),
        ("multipart/form-data; boundary=\" leading space\"", " leading space"),
        ("multipart/form-data; boundary=----WebKitFormBoundary7MA4YWxkTrZu0gW", "----WebKitFormBoundary7MA4YWxkTrZu0gW"),
        ("multipart/form-data; charset=utf-8; boundary=abc; foo=\"bar; baz\"", "abc"),
        ("multipart/form-data; boundary=abc; CHARSET=\"utf-8\"", "abc"),
        ("multipart/form-data ; boundary=abc ;charset=utf-8", "abc"),
        ("multipart/form-data\t;\tboundary=abc\t", "abc"),
        ("  multipart/form-data; boundary=abc  ", "abc"),
        ("multipart/form-data; boundary=abc;", "abc"),
        ("multipart/form-data; boundary=abc; ", "abc"),
        ("multipart/form-data;; boundary=abc ;; ;", "abc"),
        ("multipart/form-data; boundary=\(seventy)", seventy),
        ("multipart/form-data; boundary=\"\(seventy)\"", seventy),
    ])
    func accepts(value: String, boundary: String) throws {
        #expect(try Self.parse(value).boundary == Boundary(boundary))
    }

    @Test func seventyCharactersAcceptedSeventyOneRejected() throws {
        let limit = String(repeating: "x", count: Boundary.maximumLength)
        #expect(try Self.parse("multipart/form-data; boundary=\(limit)").boundary.bytes.count == 70)
        #expect(throws: MultipartError(.flag(.boundaryInvalid), offset: 30)) {
            try Self.parse("multipart/form-data; boundary=\(limit)x")
        }
        #expect(throws: MultipartError(.flag(.boundaryInvalid), offset: 31)) {
            try Self.parse("multipart/form-data; boundary=\"\(limit) \"")
        }
    }

    @Test(arguments: [
        // not_multipart_form_data: at the media type.
        ("multipart/mixed; boundary=abc", StrictFlag.notMultipartFormData, 0),
        ("text/plain", .notMultipartFormData, 0),
        ("text/plain; boundary=abc", .notMultipartFormData, 0),
        ("  application/x-www-form-urlencoded", .notMultipartFormData, 2),
        ("multipart/form-data-x; boundary=abc", .notMultipartFormData, 0),
        ("multipart/form-datax; boundary=abc", .notMultipartFormData, 0),
        // content_type_syntax: where `type/subtype` breaks, or a control character in a quoted value.
        ("", .contentTypeSyntax, 0),
        ("multipart", .contentTypeSyntax, 9),
        ("multipart/", .contentTypeSyntax, 10),
        ("/form-data; boundary=abc", .contentTypeSyntax, 0),
        ("form-data; boundary=abc", .contentTypeSyntax, 9),
        ("multipart /form-data; boundary=abc", .contentTypeSyntax, 9),
        ("multipart/ form-data; boundary=abc", .contentTypeSyntax, 10),
        ("multipart/form-data; boundary=\"ab\u{1}c\"", .contentTypeSyntax, 33),
        ("multipart/form-data; boundary=\"ab\u{7F}c\"", .contentTypeSyntax, 33),
        // boundary_missing: at the end of the value.
        ("multipart/form-data", .boundaryMissing, 19),
        ("multipart/form-data;", .boundaryMissing, 20),
        ("multipart/form-data   ", .boundaryMissing, 22),
        ("multipart/form-data; charset=utf-8", .boundaryMissing, 34),
        ("multipart/form-data; boundarys=abc", .boundaryMissing, 34),
        // boundary_invalid: at the value (after the opening quote).
        ("multipart/form-data; boundary=\"\"", .boundaryInvalid, 31),
        ("multipart/form-data; boundary=\"abc \"", .boundaryInvalid, 31),
        ("multipart/form-data; boundary=\" \"", .boundaryInvalid, 31),
        ("multipart/form-data; boundary=ab!c", .boundaryInvalid, 30),
        ("multipart/form-data; boundary=ab*c", .boundaryInvalid, 30),
        ("multipart/form-data; boundary=\"ab@c\"", .boundaryInvalid, 31),
        ("multipart/form-data; boundary=\"ab;c\"", .boundaryInvalid, 31),
        ("multipart/form-data; boundary=\"ab\u{E9}c\"", .boundaryInvalid, 31),
        ("multipart/form-data; boundary=\"a\tb\"", .boundaryInvalid, 31),
        // duplicate_parameter: at the second name.
        ("multipart/form-data; boundary=a; boundary=b", .duplicateParameter, 33),
        ("multipart/form-data; boundary=a; boundary=a", .duplicateParameter, 33),
        ("multipart/form-data; boundary=a; BOUNDARY=a", .duplicateParameter, 33),
        ("multipart/form-data; charset=utf-8; boundary=a; Charset=utf-8", .duplicateParameter, 48),
        // parameter_continuation: at the name.
        ("multipart/form-data; boundary*0=abc", .parameterContinuation, 21),
        ("multipart/form-data; boundary*=utf-8''abc", .parameterContinuation, 21),
        ("multipart/form-data; boundary*0*=utf-8''abc", .parameterContinuation, 21),
        ("multipart/form-data; boundary=abc; boundary*1=def", .parameterContinuation, 35),
        ("multipart/form-data; boundary=abc; charset*=utf-8''x", .parameterContinuation, 35),
        // invalid_parameter: whitespace around `=`, a missing `;`, an empty value or name.
        ("multipart/form-data; boundary =abc", .invalidParameter, 29),
        ("multipart/form-data; boundary= abc", .invalidParameter, 30),
        ("multipart/form-data boundary=abc", .invalidParameter, 20),
        ("multipart/form-data; charset=utf-8 boundary=abc", .invalidParameter, 34),
        ("multipart/form-data; boundary=abc\"def\"", .invalidParameter, 33),
        ("multipart/form-data; boundary=", .invalidParameter, 30),
        ("multipart/form-data; boundary=; charset=utf-8", .invalidParameter, 30),
        ("multipart/form-data; boundary", .invalidParameter, 29),
        ("multipart/form-data; =abc", .invalidParameter, 21),
        // invalid_quoting: unterminated, quoted-pair, junk after the closing quote.
        ("multipart/form-data; boundary=\"abc", .invalidQuoting, 34),
        ("multipart/form-data; boundary=\"", .invalidQuoting, 31),
        ("multipart/form-data; boundary=\"a\\\"b\"", .invalidQuoting, 32),
        ("multipart/form-data; boundary=\"a\\b\"", .invalidQuoting, 32),
        ("multipart/form-data; boundary=\"abc\"x", .invalidQuoting, 35),
        ("multipart/form-data; boundary=\"abc\" x", .invalidQuoting, 35),
        ("multipart/form-data; boundary=\"abc\"\"def\"", .invalidQuoting, 35),
    ])
    func rejects(value: String, flag: StrictFlag, offset: Int64) {
        #expect(throws: MultipartError(.flag(flag), offset: offset), "\(value.debugDescription)") {
            try Self.parse(value)
        }
    }

    @Test func boundaryOf71CharactersIsRejectedQuotedOrNot() {
        let long = String(repeating: "b", count: 71)
        #expect(throws: MultipartError(.flag(.boundaryInvalid), offset: 30)) {
            try Self.parse("multipart/form-data; boundary=\(long)")
        }
        #expect(throws: MultipartError(.flag(.boundaryInvalid), offset: 31)) {
            try Self.parse("multipart/form-data; boundary=\"\(long)\"")
        }
    }

    @Test func nonUTF8BytesInAQuotedBoundaryAreInvalid() {
        let bytes = Array("multipart/form-data; boundary=\"a".utf8) + [0xFF] + Array("b\"".utf8)
        #expect(throws: MultipartError(.flag(.boundaryInvalid), offset: 31)) {
            try bytes.withUnsafeBytes { (raw) throws(MultipartError) in try MultipartContentType.parse(raw) }
        }
    }
}

/// `headerValue(for:)` and linear-time parsing of huge values.
extension MultipartContentTypeTests {
    /// RFC 2046 bchars.
    static let bchars = Array("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'()+_,-./:=? ".utf8)
    /// The bchars that are also RFC 9110 tchars: a boundary of only these needs no quotes.
    static let tokenBChars = Set("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'+_-.".utf8)

    @Test func headerValueQuotesExactlyWhenNeeded() throws {
        #expect(MultipartContentType.headerValue(for: Boundary("abc")!) == "multipart/form-data; boundary=abc")
        #expect(MultipartContentType.headerValue(for: Boundary("a'b+c_d-e.f")!) == "multipart/form-data; boundary=a'b+c_d-e.f")
        #expect(MultipartContentType.headerValue(for: Boundary("a b")!) == "multipart/form-data; boundary=\"a b\"")
        // The byte form appends the same value after what the buffer holds.
        for spelling in ["abc", "a b", String(repeating: "z", count: 70)] {
            let boundary = Boundary(spelling)!
            var buffer = Array("Content-Type: ".utf8)
            MultipartContentType.appendHeaderValue(for: boundary, to: &buffer)
            #expect(String(decoding: buffer, as: UTF8.self) == "Content-Type: " + MultipartContentType.headerValue(for: boundary))
        }
        for byte in Self.bchars where byte != UInt8(ascii: " ") {
            let boundary = Boundary([UInt8(ascii: "x"), byte, UInt8(ascii: "y")])!
            let value = MultipartContentType.headerValue(for: boundary)
            let quoted = value.hasSuffix("\"")
            #expect(quoted != Self.tokenBChars.contains(byte), "\(value)")
            #expect(boundary.isToken == Self.tokenBChars.contains(byte))
            #expect(try Self.parse(value).boundary == boundary)
        }
    }

    @Test func headerValueRoundTripsRandomBoundaries() throws {
        var random = SplitMix64(seed: 0xB0_0D_A2_E5)
        for iteration in 0..<2000 {
            let length = Int.random(in: 1...Boundary.maximumLength, using: &random)
            var bytes = (0..<length).map { _ in Self.bchars.randomElement(using: &random)! }
            if bytes.last == UInt8(ascii: " ") { bytes[length - 1] = UInt8(ascii: "z") }
            let boundary = try #require(Boundary(bytes), "iteration \(iteration)")
            let value = MultipartContentType.headerValue(for: boundary)
            #expect(value.hasSuffix("\"") == !bytes.allSatisfy(Self.tokenBChars.contains), "\(value)")
            #expect(try Self.parse(value).boundary == boundary, "\(value)")
        }
    }

    /// Huge values complete: a quadratic scan of 1 MiB would not finish within the time limit.
    @Test(.timeLimit(.minutes(1))) func hugeValuesParseInLinearTime() throws {
        let mebibyte = 1 << 20
        var many = "multipart/form-data"
        var index = 0
        while many.utf8.count < mebibyte {
            many += "; p\(index)=v"
            index += 1
        }
        #expect(try Self.parse(many + "; boundary=abc").boundary == Boundary("abc"))
        let spaces = String(repeating: " ", count: mebibyte)
        #expect(try Self.parse("multipart/form-data;" + spaces + "boundary=abc" + spaces).boundary == Boundary("abc"))
        let semicolons = String(repeating: ";", count: mebibyte)
        #expect(try Self.parse("multipart/form-data" + semicolons + "boundary=abc").boundary == Boundary("abc"))
        #expect(throws: MultipartError(.flag(.invalidParameter), offset: 33)) {
            try Self.parse("multipart/form-data; boundary=abc" + spaces + "x")
        }
        let unterminated = "multipart/form-data; boundary=\"" + String(repeating: "q", count: mebibyte)
        #expect(throws: MultipartError(.flag(.invalidQuoting), offset: Int64(unterminated.utf8.count))) {
            try Self.parse(unterminated)
        }
        let longQuoted = "multipart/form-data; boundary=\"" + String(repeating: "q", count: mebibyte) + "\""
        #expect(throws: MultipartError(.flag(.boundaryInvalid), offset: 31)) { try Self.parse(longQuoted) }
    }
}
