import FuzzSupport

/// Part Content-Type values in a random spelling, with the canonical form the parser must produce.
enum ContentTypeBuilder {
    struct Value {
        var written: String
        var canonical: String
    }

    static func build(_ input: inout FuzzInput) -> Value {
        let type = Token.read(&input, maxLength: 10, allowStar: true, mixedCase: true)
        let subtype = Token.read(&input, maxLength: 12, allowStar: true, mixedCase: true)
        var written = type + "/" + subtype
        var canonical = type.lowercased() + "/" + subtype.lowercased()
        var seen: Set<String> = []
        for _ in 0..<(input.byte() % 4) {
            let name = Token.read(&input, maxLength: 8, mixedCase: true)
            let separator = [";", "; ", " ;\t", "\t; "][Int(input.byte() % 4)]
            let raw = input.bytes(upTo: Int(input.byte() % 12))
            // qdtext without quoted-pairs: printable ASCII other than `"` and `\`, and HTAB.
            let value = raw.map { byte -> UInt8 in
                let char = 0x20 + byte % 95
                return char == UInt8(ascii: "\"") || char == UInt8(ascii: "\\") ? 9 : char
            }
            guard seen.insert(name.lowercased()).inserted else { continue }
            let quote = !Token.isToken(value) || input.byte() & 1 != 0
            let text = String(decoding: value, as: UTF8.self)
            written += separator + name + "=" + (quote ? "\"\(text)\"" : text)
            canonical += "; " + name.lowercased() + "=" + (Token.isToken(value) ? text : "\"\(text)\"")
        }
        return Value(written: written, canonical: canonical)
    }
}
