/// Byte classes of RFC 9110/9112 and RFC 3986, as branch-light predicates (no tables, no Foundation).
enum ByteClass {
    static let cr: UInt8 = 0x0D
    static let lf: UInt8 = 0x0A
    static let sp: UInt8 = 0x20
    static let htab: UInt8 = 0x09
    static let colon: UInt8 = 0x3A
    static let semicolon: UInt8 = 0x3B
    static let equals: UInt8 = 0x3D
    static let dquote: UInt8 = 0x22
    static let backslash: UInt8 = 0x5C
    static let comma: UInt8 = 0x2C

    /// `tchar` (RFC 9110 §5.6.2): the characters of a token, as a 128-bit set: DIGIT, ALPHA and
    /// `!#$%&'*+-.^_`|~`.
    @inline(__always)
    static func isTChar(_ byte: UInt8) -> Bool {
        let low: UInt64 = 0x03FF_6CFA_0000_0000  // 0x00-0x3F: ! # $ % & ' * + - . and 0-9
        let high: UInt64 = 0x57FF_FFFF_C7FF_FFFE  // 0x40-0x7F: A-Z ^ _ ` a-z | ~
        let set = byte < 64 ? low : high
        return byte < 128 && (set >> UInt64(byte & 63)) & 1 == 1
    }

    /// `field-vchar` (RFC 9110 §5.5): VCHAR or obs-text.
    @inline(__always)
    static func isFieldVChar(_ byte: UInt8) -> Bool {
        byte > 0x20 && byte != 0x7F
    }

    /// SP or HTAB.
    @inline(__always)
    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == sp || byte == htab
    }

    /// DIGIT.
    @inline(__always)
    static func isDigit(_ byte: UInt8) -> Bool {
        byte &- 0x30 < 10
    }

    /// The value of a HEXDIG, or nil.
    @inline(__always)
    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: return byte &- 0x30
        case 0x41...0x46: return byte &- 0x41 &+ 10
        case 0x61...0x66: return byte &- 0x61 &+ 10
        default: return nil
        }
    }

    /// `qdtext` (RFC 9110 §5.6.4): HTAB, SP, `!`, `#`-`[`, `]`-`~`, obs-text.
    @inline(__always)
    static func isQDText(_ byte: UInt8) -> Bool {
        byte == htab || byte == sp || byte == 0x21 || (byte >= 0x23 && byte <= 0x5B)
            || (byte >= 0x5D && byte <= 0x7E) || byte >= 0x80
    }

    /// The second byte of a `quoted-pair` (RFC 9110 §5.6.4): HTAB, SP, VCHAR, obs-text.
    @inline(__always)
    static func isQuotedPairByte(_ byte: UInt8) -> Bool {
        byte == htab || byte == sp || isFieldVChar(byte)
    }

    /// RFC 3986 `unreserved`.
    @inline(__always)
    static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }

    /// RFC 3986 `sub-delims`.
    @inline(__always)
    static func isSubDelim(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("),
            UInt8(ascii: ")"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"),
            UInt8(ascii: "="):
            return true
        default:
            return false
        }
    }

    /// ASCII lower-casing of one byte.
    @inline(__always)
    static func lowercased(_ byte: UInt8) -> UInt8 {
        (byte >= 0x41 && byte <= 0x5A) ? byte | 0x20 : byte
    }
}
