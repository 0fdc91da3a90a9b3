/// A multipart boundary: 1–70 RFC 2046 `bchars`, not ending in a space.
public struct Boundary: Sendable, Hashable, CustomStringConvertible {
    /// The boundary's bytes (without the leading `--`).
    public let bytes: [UInt8]
    /// True if the boundary can be written as a bare token in a Content-Type parameter (it holds no RFC 2045
    /// tspecials and no space); otherwise it must be quoted. Decided once, when the boundary is made.
    public let isToken: Bool

    /// The longest boundary RFC 2046 allows.
    public static let maximumLength = 70

    /// Validates `bytes` as a boundary.
    /// - Returns: nil if `bytes` is empty, too long, ends in a space, or holds a byte outside `bchars`.
    public init?(_ bytes: some Sequence<UInt8>) {
        let array = Array(bytes)
        guard let isToken = array.withUnsafeBytes(Self.validate) else { return nil }
        self.bytes = array
        self.isToken = isToken
    }

    /// Validates `bytes` as a boundary (a request's Content-Type parameter, read in place): one pass, one copy.
    public init?(_ bytes: UnsafeRawBufferPointer) {
        guard let isToken = Self.validate(bytes) else { return nil }
        self.bytes = Array(bytes)
        self.isToken = isToken
    }

    /// nil if `bytes` is not a valid boundary, else whether it is a token too (see ``isToken``).
    private static func validate(_ bytes: UnsafeRawBufferPointer) -> Bool? {
        guard !bytes.isEmpty, bytes.count <= maximumLength, bytes.last != UInt8(ascii: " ") else { return nil }
        // One table read per byte: the AND of the classes keeps bit 0 if every byte is a bchar, bit 1 if every
        // byte is a tchar too.
        let classes = byteClasses.utf8Start
        var all: UInt8 = 3
        for byte in bytes {
            guard byte < 128 else { return nil }
            all &= classes[Int(byte)]
        }
        guard all & 1 != 0 else { return nil }
        return all & 2 != 0
    }

    /// For each ASCII byte, 16 to a row: bit 0 set for an RFC 2046 bchar, bit 1 for an RFC 9110 tchar (the digits
    /// `0`...`3` carry exactly those two bits). bchars that are not tchars: `(` `)` `,` `/` `:` `=` `?` and space.
    private static let byteClasses: StaticString = """
        0000000000000000\
        0000000000000000\
        1202222311231331\
        3333333333100101\
        0333333333333333\
        3333333333300023\
        2333333333333333\
        3333333333302020
        """

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
        let prefixCount = prefix.utf8CodeUnitCount
        let high = generator.next() as UInt64
        let low = generator.next() as UInt64
        // Spelled in a stack buffer and copied into the array once. (An append per digit checked the capacity 32
        // times: ~900 instructions a boundary. `Array(unsafeUninitializedCapacity:)` reaches the unspecialised
        // array allocation, which looks up its storage class's metadata at run time: ~500 instructions more than
        // `reserveCapacity`.)
        let count = prefixCount + 32
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count)
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: count) { buffer in
            let digits = hex.utf8Start
            prefix.withUTF8Buffer { _ = buffer.initialize(fromContentsOf: $0) }
            for digit in 0..<16 {
                let shift = UInt64(60 - 4 * digit)
                buffer.initializeElement(at: prefixCount + digit, to: digits[Int((high >> shift) & 0xF)])
                buffer.initializeElement(at: prefixCount + 16 + digit, to: digits[Int((low >> shift) & 0xF)])
            }
            bytes.append(contentsOf: UnsafeBufferPointer(buffer))
        }
        return Boundary(validated: bytes, isToken: true)  // "partgate-" and hex digits are token characters
    }

    private init(validated bytes: [UInt8], isToken: Bool) {
        self.bytes = bytes
        self.isToken = isToken
    }

    /// Whether `bytes` is a valid RFC 2046 boundary.
    public static func isValid(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes(validate) != nil
    }

    /// RFC 2046 `bchars`: DIGIT / ALPHA / `'()+_,-./:=?` / SP (a bit per ASCII byte; the test suite checks the
    /// masks against the grammar, byte by byte).
    @inline(__always)
    public static func isBChar(_ byte: UInt8) -> Bool {
        if byte < 64 { return (0xA7FF_FB81_0000_0000 as UInt64) >> UInt64(byte) & 1 != 0 }
        if byte < 128 { return (0x07FF_FFFE_87FF_FFFE as UInt64) >> UInt64(byte &- 64) & 1 != 0 }
        return false
    }

    /// The boundary as text (bchars are ASCII).
    public var description: String {
        String(decoding: bytes, as: UTF8.self)
    }
}
