/// Writes one JSON object with keys in the order they are added (logs, problem details, `inspect`).
///
/// Strings are escaped per RFC 8259 (quotes, backslash, control characters); invalid UTF-8 never occurs
/// because Swift strings are valid Unicode. The object is built as UTF-8 bytes and becomes a String once, in
/// ``finished``: appending to a String costs a few hundred instructions per call, which made an access line
/// cost more than parsing the request it logs.
public struct JSONObjectWriter: Sendable {
    private var bytes: [UInt8] = [UInt8(ascii: "{")]
    private var empty = true

    /// An empty object.
    public init() {
        bytes.reserveCapacity(256)
    }

    /// Adds a string member (or null).
    public mutating func add(_ key: String, _ value: String?) {
        member(key)
        if let value { Self.appendString(value, to: &bytes) } else { Self.append("null", to: &bytes) }
    }

    /// Adds an integer member (or null).
    public mutating func add(_ key: String, _ value: Int64?) {
        member(key)
        if let value { Self.append(String(value), to: &bytes) } else { Self.append("null", to: &bytes) }
    }

    /// Adds an integer member (or null).
    public mutating func add(_ key: String, _ value: Int?) {
        add(key, value.map(Int64.init))
    }

    /// Adds a string member whose bytes need no escaping (a timestamp): `write` appends them.
    public mutating func add(_ key: String, unescaped write: (inout [UInt8]) -> Void) {
        member(key)
        bytes.append(UInt8(ascii: "\""))
        write(&bytes)
        bytes.append(UInt8(ascii: "\""))
    }

    /// Adds a boolean member.
    public mutating func add(_ key: String, _ value: Bool) {
        member(key)
        Self.append(value ? "true" : "false", to: &bytes)
    }

    /// Adds a nested object.
    public mutating func add(_ key: String, object: JSONObjectWriter) {
        member(key)
        bytes.append(contentsOf: object.bytes)
        bytes.append(UInt8(ascii: "}"))
    }

    /// Adds an array of objects.
    public mutating func add(_ key: String, objects: [JSONObjectWriter]) {
        member(key)
        bytes.append(UInt8(ascii: "["))
        for (index, object) in objects.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes.append(contentsOf: object.bytes)
            bytes.append(UInt8(ascii: "}"))
        }
        bytes.append(UInt8(ascii: "]"))
    }

    /// Adds an array of strings.
    public mutating func add(_ key: String, strings: [String]) {
        member(key)
        bytes.append(UInt8(ascii: "["))
        for (index, value) in strings.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            Self.appendString(value, to: &bytes)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    /// The object's text.
    public var finished: String { finished(appending: "") }

    /// The object's UTF-8 bytes followed by `suffix` (a log line written without making a String).
    public func finishedBytes(appending suffix: StaticString) -> [UInt8] {
        var out = bytes
        out.append(UInt8(ascii: "}"))
        suffix.withUTF8Buffer { out.append(contentsOf: $0) }
        return out
    }

    /// The object's text followed by `suffix` (a log line's newline), made in one allocation.
    public func finished(appending suffix: StaticString) -> String {
        let count = bytes.count + 1 + suffix.utf8CodeUnitCount
        return String(unsafeUninitializedCapacity: count) { out in
            var at = bytes.withUnsafeBufferPointer { UnsafeMutableBufferPointer(rebasing: out[...]).initialize(fromContentsOf: $0) }
            out[at] = UInt8(ascii: "}")
            at += 1
            suffix.withUTF8Buffer { tail in
                at = UnsafeMutableBufferPointer(rebasing: out[at...]).initialize(fromContentsOf: tail) + at
            }
            return at
        }
    }

    private mutating func member(_ key: String) {
        if !empty { bytes.append(UInt8(ascii: ",")) }
        empty = false
        Self.appendString(key, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
    }

    private static func append(_ text: String, to bytes: inout [UInt8]) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    /// Appends `value` as a JSON string literal, in UTF-8. Runs of bytes that need no escape are copied whole.
    public static func appendString(_ value: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        var value = value
        value.withUTF8 { utf8 in
            var start = 0
            var index = 0
            while index < utf8.count {
                let byte = utf8[index]
                if byte >= 0x20, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\"), byte != 0x7F {
                    index += 1
                    continue
                }
                if start < index { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<index])) }
                appendEscape(byte, to: &bytes)
                index += 1
                start = index
            }
            if start < utf8.count { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start...])) }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Appends the escape of `byte` (a quote, a backslash or a control character).
    private static func appendEscape(_ byte: UInt8, to bytes: inout [UInt8]) {
        let escape: StaticString
        switch byte {
        case UInt8(ascii: "\""): escape = "\\\""
        case UInt8(ascii: "\\"): escape = "\\\\"
        case UInt8(ascii: "\n"): escape = "\\n"
        case UInt8(ascii: "\r"): escape = "\\r"
        case UInt8(ascii: "\t"): escape = "\\t"
        default:
            let hex: StaticString = "0123456789abcdef"
            let digits = hex.utf8Start
            bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                                      digits[Int(byte >> 4)], digits[Int(byte & 0xF)]])
            return
        }
        escape.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }
}
