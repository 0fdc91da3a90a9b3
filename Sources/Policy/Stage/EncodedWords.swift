import Multipart

/// RFC 2047 encoded-words (`=?charset?Q?text?=`, `=?charset?B?text?=`), decoded wherever they stand in a value, the
/// whitespace between two adjacent words dropped, as Python's `email.header.decode_header` reads them (its stricter
/// header parser decodes fewer: an alias too many only makes a rule take more). UTF-8 and US-ASCII words decode as
/// UTF-8, any other charset byte for byte as ISO-8859-1 (partgate only needs the name a backend could compare, not
/// every charset's letters).
enum EncodedWords {
    /// The decoded value, or nil when `value` holds no encoded-word.
    static func decode(_ value: String) -> String? {
        let bytes = Array(value.utf8)
        guard bytes.count >= 8, bytes.contains(UInt8(ascii: "?")) else { return nil }
        var result: [UInt8] = []
        var decodedAny = false
        var index = 0
        while index < bytes.count {
            guard let (text, end) = word(bytes, at: index) else {
                result.append(bytes[index])
                index += 1
                continue
            }
            result += text.utf8
            decodedAny = true
            index = end
            // Whitespace between two encoded-words is not part of the value.
            var next = index
            while next < bytes.count, bytes[next] == UInt8(ascii: " ") || bytes[next] == UInt8(ascii: "\t") { next += 1 }
            if next > index, word(bytes, at: next) != nil { index = next }
        }
        return decodedAny ? String(decoding: result, as: UTF8.self) : nil
    }

    /// One encoded-word at `start`: its text and the index after its `?=`.
    private static func word(_ bytes: [UInt8], at start: Int) -> (String, Int)? {
        guard start + 1 < bytes.count, bytes[start] == UInt8(ascii: "="), bytes[start + 1] == UInt8(ascii: "?"),
            let charsetEnd = bytes[(start + 2)...].firstIndex(of: UInt8(ascii: "?")),
            charsetEnd + 2 < bytes.count, bytes[charsetEnd + 2] == UInt8(ascii: "?")
        else { return nil }
        let charset = String(decoding: bytes[(start + 2)..<charsetEnd], as: UTF8.self).lowercased()
        let textStart = charsetEnd + 3
        var textEnd = textStart
        while textEnd + 1 < bytes.count, !(bytes[textEnd] == UInt8(ascii: "?") && bytes[textEnd + 1] == UInt8(ascii: "=")) {
            textEnd += 1
        }
        guard textEnd + 1 < bytes.count else { return nil }
        let text = bytes[textStart..<textEnd]
        let decoded: [UInt8]?
        switch bytes[charsetEnd + 1] | 0x20 {
        case UInt8(ascii: "q"): decoded = quoted(text)
        case UInt8(ascii: "b"): decoded = base64(text)
        default: decoded = nil
        }
        guard let decoded else { return nil }
        let language = charset.split(separator: "*", maxSplits: 1).first.map(String.init) ?? charset
        let string = language == "utf-8" || language == "us-ascii"
            ? String(decoding: decoded, as: UTF8.self)
            : String(String.UnicodeScalarView(decoded.map { Unicode.Scalar($0) }))
        return (string, textEnd + 2)
    }

    /// The Q encoding: `_` is a space, `=XX` a byte.
    private static func quoted(_ text: ArraySlice<UInt8>) -> [UInt8]? {
        var out: [UInt8] = []
        var index = text.startIndex
        while index < text.endIndex {
            let byte = text[index]
            if byte == UInt8(ascii: "_") {
                out.append(UInt8(ascii: " "))
            } else if byte == UInt8(ascii: "=") {
                guard index + 2 < text.endIndex, let high = ASCIIHex.value(text[index + 1]),
                    let low = ASCIIHex.value(text[index + 2])
                else { return nil }
                out.append(high << 4 | low)
                index += 2
            } else {
                out.append(byte)
            }
            index += 1
        }
        return out
    }

    /// The B encoding: base64 (RFC 4648 §4), padding optional as Python's decoder allows.
    private static func base64(_ text: ArraySlice<UInt8>) -> [UInt8]? {
        var out: [UInt8] = []
        var accumulator: UInt32 = 0
        var bits = 0
        for byte in text {
            let value: UInt8
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): value = byte - UInt8(ascii: "A")
            case UInt8(ascii: "a")...UInt8(ascii: "z"): value = byte - UInt8(ascii: "a") + 26
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = byte - UInt8(ascii: "0") + 52
            case UInt8(ascii: "+"): value = 62
            case UInt8(ascii: "/"): value = 63
            case UInt8(ascii: "="): continue
            default: return nil
            }
            accumulator = accumulator << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
            }
        }
        return out
    }
}
