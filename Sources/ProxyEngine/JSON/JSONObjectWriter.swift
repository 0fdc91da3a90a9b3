/// Writes one JSON object with keys in the order they are added (logs, problem details, `inspect`).
///
/// Strings are escaped per RFC 8259 (quotes, backslash, control characters); invalid UTF-8 never occurs
/// because Swift strings are valid Unicode.
public struct JSONObjectWriter: Sendable {
    private var text = "{"
    private var empty = true

    /// An empty object.
    public init() {}

    /// Adds a string member (or null).
    public mutating func add(_ key: String, _ value: String?) {
        member(key)
        if let value { Self.appendString(value, to: &text) } else { text += "null" }
    }

    /// Adds an integer member (or null).
    public mutating func add(_ key: String, _ value: Int64?) {
        member(key)
        text += value.map(String.init) ?? "null"
    }

    /// Adds an integer member (or null).
    public mutating func add(_ key: String, _ value: Int?) {
        add(key, value.map(Int64.init))
    }

    /// Adds a boolean member.
    public mutating func add(_ key: String, _ value: Bool) {
        member(key)
        text += value ? "true" : "false"
    }

    /// Adds a nested object.
    public mutating func add(_ key: String, object: JSONObjectWriter) {
        member(key)
        text += object.finished
    }

    /// Adds an array of objects.
    public mutating func add(_ key: String, objects: [JSONObjectWriter]) {
        member(key)
        text += "["
        text += objects.map(\.finished).joined(separator: ",")
        text += "]"
    }

    /// Adds an array of strings.
    public mutating func add(_ key: String, strings: [String]) {
        member(key)
        text += "["
        for (index, value) in strings.enumerated() {
            if index > 0 { text += "," }
            Self.appendString(value, to: &text)
        }
        text += "]"
    }

    /// The object's text.
    public var finished: String { text + "}" }

    private mutating func member(_ key: String) {
        if !empty { text += "," }
        empty = false
        Self.appendString(key, to: &text)
        text += ":"
    }

    /// Appends `value` as a JSON string literal.
    public static func appendString(_ value: String, to text: inout String) {
        // Fast path: nothing to escape (the usual case for log fields).
        if !value.utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C || $0 == 0x7F }) {
            text += "\""
            text += value
            text += "\""
            return
        }
        text += "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                let hex = String(scalar.value, radix: 16)
                text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default:
                text.unicodeScalars.append(scalar)
            }
        }
        text += "\""
    }
}
