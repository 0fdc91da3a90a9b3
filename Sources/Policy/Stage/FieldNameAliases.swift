/// The other names a backend may read a field name as, so a rule on `internal_*` also takes the parts that
/// Django, PHP or Rack would file under such a name:
/// - **trimmed**: Django strips whitespace around a name (`" internal_admin"` is `internal_admin` to it);
/// - **PHP's variable name**: leading spaces dropped, then ` ` and `.` become `_`; `a[b]` is the array `a`, and a
///   `[` without a `]` after it becomes `_` (`internal.admin`, `internal admin` and `internal[admin` are all
///   `internal_admin` in `$_POST`);
/// - **RFC 2047 decoded**: Python's email parser (and with it the older cgi module) decodes a name made of
///   encoded-words (`=?utf-8?q?internal=5Fadmin?=`, `=?utf-8?b?aW50ZXJuYWxfYWRtaW4=?=`).
///
/// A field rule matches when the name as sent or any alias matches (``PartEvaluator``): a rule names what the
/// backend will see, whichever backend it is. The canonical body still carries the name as sent.
enum FieldNameAliases {
    /// The aliases of `name` that differ from it (none for the usual name: ASCII letters, digits, `_`, `-`).
    static func aliases(of name: String) -> [String] {
        guard mayHaveAliases(name) else { return [] }
        var aliases: [String] = []
        let trimmed = trimmingWhitespace(name)
        var candidates = [trimmed, phpName(name), phpName(trimmed)]
        if let decoded = EncodedWords.decode(trimmed) { candidates += [decoded, phpName(decoded)] }
        for alias in candidates where alias != name && !aliases.contains(alias) {
            aliases.append(alias)
        }
        return aliases
    }

    /// Whether `name` holds a byte any alias rewrites: whitespace, `.`, `[`, `=` (an encoded-word) or a non-ASCII
    /// byte.
    private static func mayHaveAliases(_ name: String) -> Bool {
        name.utf8.contains { byte in
            byte == UInt8(ascii: " ") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "[") || byte >= 0x80
                || byte == UInt8(ascii: "=") || (0x09...0x0D).contains(byte)
        }
    }

    private static func trimmingWhitespace(_ name: String) -> String {
        let scalars = name.unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })!
        return String(scalars[first...last])
    }

    /// The name PHP gives the variable (`php_register_variable_ex`).
    private static func phpName(_ name: String) -> String {
        let scalars = Array(name.unicodeScalars.drop { $0 == " " })
        var result = String.UnicodeScalarView()
        for (index, scalar) in scalars.enumerated() {
            switch scalar {
            case " ", ".":
                result.append("_")
            case "[":
                if scalars[(index + 1)...].contains("]") { return String(result) }  // the array's name
                result.append("_")
                result.append(contentsOf: scalars[(index + 1)...])
                return String(result)
            default:
                result.append(scalar)
            }
        }
        return String(result)
    }
}
