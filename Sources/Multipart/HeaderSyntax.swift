/// Character classes shared by the header-value parsers (RFC 9110 §5.6).
enum HeaderSyntax {
    /// RFC 9110 `tchar` (a bitmask test: this runs once per header byte).
    @inline(__always)
    static func isTokenChar(_ byte: UInt8) -> Bool {
        if byte < 64 { return (0x03FF_6CFA_0000_0000 as UInt64) >> UInt64(byte) & 1 != 0 }
        if byte < 128 { return (0x57FF_FFFF_C7FF_FFFE as UInt64) >> UInt64(byte &- 64) & 1 != 0 }
        return false
    }

    /// SP or HTAB.
    @inline(__always)
    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09
    }

    /// A control character other than HTAB (and DEL).
    @inline(__always)
    static func isControl(_ byte: UInt8) -> Bool {
        (byte < 0x20 && byte != 0x09) || byte == 0x7F
    }

    /// ASCII lowercase of a byte.
    @inline(__always)
    static func lower(_ byte: UInt8) -> UInt8 {
        byte &- UInt8(ascii: "A") < 26 ? byte | 0x20 : byte
    }

    /// Case-insensitive ASCII comparison of a byte slice with a lowercase literal.
    @inline(__always)
    static func equalsLowercase(_ bytes: UnsafeRawBufferPointer, _ literal: StaticString) -> Bool {
        guard bytes.count == literal.utf8CodeUnitCount else { return false }
        let lit = literal.utf8Start
        for i in 0..<bytes.count where lower(bytes[i]) != lit[i] {
            return false
        }
        return true
    }
}
