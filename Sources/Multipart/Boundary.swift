/// A multipart boundary: 1–70 RFC 2046 `bchars`, not ending in a space.
public struct Boundary: Sendable, Hashable, CustomStringConvertible {
    /// The boundary's bytes (without the leading `--`).
    public let bytes: [UInt8]

    /// The longest boundary RFC 2046 allows.
    public static let maximumLength = 70

    /// Validates `bytes` as a boundary.
    /// - Returns: nil if `bytes` is empty, too long, ends in a space, or holds a byte outside `bchars`.
    public init?(_ bytes: some Sequence<UInt8>) {
        let array = Array(bytes)
        guard Self.isValid(array) else { return nil }
        self.bytes = array
    }

    /// Validates `string` as a boundary (see ``init(_:)-(Sequence<UInt8>)``).
    public init?(_ string: String) {
        self.init(Array(string.utf8))
    }

    /// A fresh boundary from the system CSPRNG (getrandom on Linux): `partgate-` and 32 hex digits, 128 bits.
    public static func random() -> Boundary {
        var generator = SystemRandomNumberGenerator()
        return random(using: &generator)
    }

    /// A boundary from `generator` (tests inject a seeded generator; production uses ``random()``).
    public static func random(using generator: inout some RandomNumberGenerator) -> Boundary {
        let hex: StaticString = "0123456789abcdef"
        let prefix: StaticString = "partgate-"
        var bytes: [UInt8] = []
        bytes.reserveCapacity(prefix.utf8CodeUnitCount + 32)
        prefix.withUTF8Buffer { bytes.append(contentsOf: $0) }
        for _ in 0..<2 {
            let word = generator.next() as UInt64
            for shift in stride(from: 60, through: 0, by: -4) {
                bytes.append(hex.utf8Start[Int((word >> UInt64(shift)) & 0xF)])
            }
        }
        return Boundary(validated: bytes)
    }

    private init(validated bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Whether `bytes` is a valid RFC 2046 boundary.
    public static func isValid(_ bytes: [UInt8]) -> Bool {
        guard !bytes.isEmpty, bytes.count <= maximumLength, bytes.last != UInt8(ascii: " ") else { return false }
        return bytes.allSatisfy(isBChar)
    }

    /// RFC 2046 `bchars`: DIGIT / ALPHA / `'()+_,-./:=?` / SP.
    @inline(__always)
    public static func isBChar(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "A")...UInt8(ascii: "Z"):
            return true
        case UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "+"), UInt8(ascii: "_"),
            UInt8(ascii: ","), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "/"), UInt8(ascii: ":"),
            UInt8(ascii: "="), UInt8(ascii: "?"), UInt8(ascii: " "):
            return true
        default:
            return false
        }
    }

    /// True if the boundary can be written as a bare token in a Content-Type parameter
    /// (it holds no RFC 2045 tspecials and no space); otherwise it must be quoted.
    public var isToken: Bool {
        bytes.allSatisfy(HeaderSyntax.isTokenChar)
    }

    /// The boundary as text (bchars are ASCII).
    public var description: String {
        String(decoding: bytes, as: UTF8.self)
    }
}
