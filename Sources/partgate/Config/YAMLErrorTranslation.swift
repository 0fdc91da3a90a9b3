import Yams

/// Turns Yams errors into positioned diagnostics.
enum YAMLErrorTranslation {
    /// A diagnostic for an error thrown while parsing `text`.
    static func diagnostic(for error: any Error, file: String, text: String) -> ConfigDiagnostic {
        func make(_ code: ConfigError.Code, _ line: Int, _ column: Int, _ reason: String) -> ConfigDiagnostic {
            ConfigDiagnostic(code: code, file: file, line: line, column: column, reason: reason)
        }
        guard let error = error as? YamlError else {
            return make(.yamlSyntax, 1, 1, "YAML: \(error)")
        }
        switch error {
        case .scanner(let context, let problem, let mark, _), .parser(let context, let problem, let mark, _),
            .composer(let context, let problem, let mark, _):
            let while_ = context.map { " (\($0.text) at \($0.mark.line):\($0.mark.column))" } ?? ""
            return make(.yamlSyntax, mark.line, mark.column, "YAML syntax: \(problem)\(while_)")
        case .duplicatedKeysInMapping(let duplicates, let context):
            let key = duplicates.first ?? "?"
            let repeated = position(
                ofRepeatedKey: key, firstLine: context.mark.line,
                firstColumn: context.mark.column, in: text)
            return make(
                .duplicateKey, repeated.line, repeated.column,
                "duplicate key '\(key)' (first at \(context.mark.line):\(context.mark.column))")
        case .reader(let problem, let offset, _, _):
            let (line, column) = offset.map { position(ofUTF8Offset: $0, in: text) } ?? (1, 1)
            return make(.yamlSyntax, line, column, "YAML: \(problem)")
        default:
            return make(.yamlSyntax, 1, 1, "YAML: \(error)")
        }
    }

    /// Where `key` appears again as a key at the same column as its first occurrence (block mappings), or in
    /// the same flow mapping line; falls back to the first occurrence. A key may be quoted and followed by blanks
    /// before its colon (`url :`); the search ends where the mapping does (a line indented less than the key).
    static func position(ofRepeatedKey key: String, firstLine: Int, firstColumn: Int, in text: String)
        -> (line: Int, column: Int)
    {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let spellings = [key, "\"\(key)\"", "'\(key)'"].map { Array($0.unicodeScalars) }
        for (index, line) in lines.enumerated() where index + 1 >= firstLine {
            let scalars = Array(line.unicodeScalars)
            if index + 1 > firstLine, let indent = scalars.firstIndex(where: { $0 != " " }),
                scalars[indent] != "#", indent + 1 < firstColumn, !line.contains("{")
            {
                break  // a less indented line: the mapping holding the first key ended
            }
            for column in scalars.indices {
                let isFirst = index + 1 == firstLine && column + 1 <= firstColumn
                let boundary = column == 0 || " {,-".unicodeScalars.contains(scalars[column - 1])
                guard !isFirst, boundary,
                    index + 1 > firstLine ? column + 1 == firstColumn || line.contains("{") : true,
                    spellings.contains(where: { isKey($0, at: column, in: scalars) })
                else { continue }
                return (index + 1, column + 1)
            }
        }
        return (firstLine, firstColumn)
    }

    /// Whether `spelling` starts at `column` of `scalars`, followed by optional blanks and a colon.
    private static func isKey(_ spelling: [Unicode.Scalar], at column: Int, in scalars: [Unicode.Scalar]) -> Bool {
        guard scalars.count - column > spelling.count, Array(scalars[column..<column + spelling.count]) == spelling
        else { return false }
        var next = column + spelling.count
        while next < scalars.count, scalars[next] == " " || scalars[next] == "\t" { next += 1 }
        return next < scalars.count && scalars[next] == ":"
    }

    /// 1-based line and column (in Unicode scalars) of a UTF-8 byte offset.
    static func position(ofUTF8Offset offset: Int, in text: String) -> (Int, Int) {
        var line = 1
        var column = 1
        var consumed = 0
        for scalar in text.unicodeScalars {
            if consumed >= offset { break }
            consumed += UTF8.width(scalar)
            if scalar == "\n" {
                line += 1
                column = 1
            } else {
                column += 1
            }
        }
        return (line, column)
    }

    /// 1-based line and column (in bytes from the line start) of the first byte that breaks UTF-8.
    static func position(ofFirstInvalidUTF8In bytes: [UInt8]) -> (Int, Int) {
        var line = 1
        var lineStart = 0
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            let width =
                byte < 0x80 ? 1 : byte >> 5 == 0b110 ? 2 : byte >> 4 == 0b1110 ? 3 : byte >> 3 == 0b11110 ? 4 : 0
            let end = index + width
            guard width > 0, end <= bytes.count,
                String(validating: bytes[index..<end], as: UTF8.self) != nil
            else {
                return (line, index - lineStart + 1)
            }
            if byte == UInt8(ascii: "\n") {
                line += 1
                lineStart = end
            }
            index = end
        }
        return (line, 1)
    }
}
