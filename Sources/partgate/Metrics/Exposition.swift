/// The Prometheus text format's pieces: sample lines, label sets, numbers and escapes.
enum Exposition {
    /// `name{labels} value\n` (no braces when `labels` is empty).
    static func sample(_ name: String, _ labels: String, _ value: String, into out: inout [UInt8]) {
        out.append(contentsOf: name.utf8)
        if !labels.isEmpty {
            out.append(UInt8(ascii: "{"))
            out.append(contentsOf: labels.utf8)
            out.append(UInt8(ascii: "}"))
        }
        out.append(UInt8(ascii: " "))
        out.append(contentsOf: value.utf8)
        out.append(UInt8(ascii: "\n"))
    }

    /// `a="x",b="y"`: label values escaped (`\\`, `\"`, `\n`), in the order given.
    static func labels(_ labels: [(String, String)]) -> String {
        labels.map { "\($0.0)=\"\(escapeLabelValue($0.1))\"" }.joined(separator: ",")
    }

    static func escapeLabelValue(_ value: String) -> String {
        guard value.utf8.contains(where: { $0 == UInt8(ascii: "\\") || $0 == UInt8(ascii: "\"") || $0 == 0x0A })
        else { return value }
        var escaped = ""
        for character in value.unicodeScalars {
            switch character {
            case "\\": escaped += "\\\\"
            case "\"": escaped += "\\\""
            case "\n": escaped += "\\n"
            default: escaped.unicodeScalars.append(character)
            }
        }
        return escaped
    }

    /// Help text escaped (`\\`, `\n`).
    static func escapeHelp(_ text: String) -> String {
        var escaped = ""
        for character in text.unicodeScalars {
            switch character {
            case "\\": escaped += "\\\\"
            case "\n": escaped += "\\n"
            default: escaped.unicodeScalars.append(character)
            }
        }
        return escaped
    }

    /// A float as Prometheus reads it: integers without a fraction (`60`, not `60.0`), `+Inf`, `-Inf`, `NaN`.
    static func number(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value > 0 ? "+Inf" : "-Inf" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }

    static func append(_ text: String, to out: inout [UInt8]) {
        out.append(contentsOf: text.utf8)
    }
}
