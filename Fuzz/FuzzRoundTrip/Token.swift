import FuzzSupport

/// RFC 9110 tokens from fuzzer bytes.
enum Token {
    static let lowerChars = Array("abcdefghijklmnopqrstuvwxyz0123456789!#$%&'+-.^_`|~".utf8)

    /// A token of 1…`maxLength` characters; `mixedCase` upper-cases letters whose input byte has bit 7 set.
    static func read(
        _ input: inout FuzzInput, maxLength: Int, allowStar: Bool = false, mixedCase: Bool = false
    ) -> String {
        let raw = input.bytes(upTo: 1 + Int(input.byte()) % maxLength)
        let chars = allowStar ? lowerChars + [UInt8(ascii: "*")] : lowerChars
        var bytes = raw.map { byte -> UInt8 in
            let char = chars[Int(byte & 0x7F) % chars.count]
            return mixedCase && byte & 0x80 != 0 && char >= UInt8(ascii: "a") && char <= UInt8(ascii: "z")
                ? char - 32 : char
        }
        if bytes.isEmpty { bytes = [UInt8(ascii: "t")] }
        return String(decoding: bytes, as: UTF8.self)
    }

    static func isToken(_ bytes: some Collection<UInt8>) -> Bool {
        !bytes.isEmpty && bytes.allSatisfy { lowerChars.contains($0) || $0 == UInt8(ascii: "*")
            || ($0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z")) }
    }
}
