import Multipart
import Testing

/// RFC 2046 boundary validation and the boundary generator.
@Suite("Boundary")
struct BoundaryTests {
    static let bchars = Set("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'()+_,-./:=? ".utf8)
    static let hexDigits = Set("0123456789abcdef".utf8)
    static let tchars = Set("!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".utf8)

    @Test func bcharsAreExactlyTheRFC2046Set() {
        for byte in UInt8.min...UInt8.max {
            #expect(Boundary.isBChar(byte) == Self.bchars.contains(byte), "byte \(byte)")
            let inside = [UInt8(ascii: "a"), byte, UInt8(ascii: "z")]
            #expect((Boundary(inside) != nil) == Self.bchars.contains(byte), "byte \(byte)")
            #expect(Boundary.isValid(inside) == Self.bchars.contains(byte), "byte \(byte)")
            let isToken = Self.bchars.contains(byte) && Self.tchars.contains(byte)
            #expect(Boundary(inside)?.isToken == (Self.bchars.contains(byte) ? isToken : nil), "byte \(byte)")
            let parsed = inside.withUnsafeBytes { Boundary($0) }
            #expect(parsed?.isToken == (Self.bchars.contains(byte) ? isToken : nil), "byte \(byte)")
        }
    }

    @Test func everyBCharIsAValidOneCharacterBoundaryExceptSpace() {
        for byte in Self.bchars {
            #expect((Boundary([byte]) != nil) == (byte != UInt8(ascii: " ")), "byte \(byte)")
        }
    }

    @Test func lengthAndTrailingSpace() {
        #expect(Boundary("") == nil)
        #expect(Boundary([UInt8]()) == nil)
        #expect(Boundary("a")?.bytes == [UInt8(ascii: "a")])
        #expect(Boundary(String(repeating: "x", count: 70)) != nil)
        #expect(Boundary(String(repeating: "x", count: 71)) == nil)
        #expect(Boundary(String(repeating: "x", count: 69) + " ") == nil)
        #expect(Boundary("a b") != nil)
        #expect(Boundary(" ab") != nil)
        #expect(Boundary("ab ") == nil)
        #expect(Boundary("ab\t") == nil)
        #expect(Boundary("caf\u{E9}") == nil)
        #expect(Boundary.maximumLength == 70)
        #expect(Boundary("a'b(c)d+e_f,g-h.i/j:k=l?m n")?.description == "a'b(c)d+e_f,g-h.i/j:k=l?m n")
    }

    @Test func isTokenMeansNoTSpecialsAndNoSpace() {
        #expect(Boundary("abc-DEF_123.+'")!.isToken)
        for special in ["a b", "a(b", "a)b", "a,b", "a/b", "a:b", "a=b", "a?b"] {
            #expect(!Boundary(special)!.isToken, "\(special)")
        }
    }

    @Test func randomBoundariesHave128BitsAndNeedNoQuotes() {
        var seen = Set<Boundary>()
        var digitsAtPosition = [Set<UInt8>](repeating: [], count: 32)
        var malformed: [Boundary] = []
        for _ in 0..<10_000 {
            let boundary = Boundary.random()
            let bytes = boundary.bytes
            let digits = bytes.dropFirst(9)
            let wellFormed = bytes.starts(with: Array("partgate-".utf8)) && digits.count == 32
                && digits.allSatisfy(Self.hexDigits.contains) && bytes.count <= Boundary.maximumLength
                && Boundary.isValid(bytes) && boundary.isToken
                && !MultipartContentType.headerValue(for: boundary).contains("\"")
            if !wellFormed { malformed.append(boundary) }
            for (position, digit) in digits.prefix(32).enumerated() { digitsAtPosition[position].insert(digit) }
            seen.insert(boundary)
        }
        #expect(malformed.isEmpty, "e.g. \(malformed.prefix(3))")
        #expect(seen.count == 10_000)
        // Every hex position varies (a stuck half would still give distinct boundaries).
        #expect(digitsAtPosition.allSatisfy { $0.count == 16 })
    }

    @Test func randomUsingASeededGeneratorIsReproducible() {
        var first = SplitMix64(seed: 42)
        var second = SplitMix64(seed: 42)
        var other = SplitMix64(seed: 43)
        let a = (0..<100).map { _ in Boundary.random(using: &first) }
        let b = (0..<100).map { _ in Boundary.random(using: &second) }
        let c = (0..<100).map { _ in Boundary.random(using: &other) }
        #expect(a == b)
        #expect(a != c)
        #expect(Set(a).count == 100)
    }

    /// A generator that replays fixed words.
    struct Replay: RandomNumberGenerator {
        var words: [UInt64]
        mutating func next() -> UInt64 { words.removeFirst() }
    }

    @Test func randomUsesTwoWordsMostSignificantDigitFirst() {
        var generator = Replay(words: [0x0123_4567_89AB_CDEF, 0xFEDC_BA98_7654_3210, 0])
        #expect(Boundary.random(using: &generator).description == "partgate-0123456789abcdeffedcba9876543210")
        #expect(generator.words == [0])
    }
}
