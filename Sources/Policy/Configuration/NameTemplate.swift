/// A `rename:` template such as `{uuid}{ext}` or `upload-{index}-{stem}{ext}`.
///
/// Placeholders: `{filename}` (the sanitised original filename), `{stem}` (it without its extension),
/// `{ext}` (its extension *with* the leading dot, or empty), `{field}` (the field name), `{uuid}` (a random
/// UUID, lower case), `{index}` (the part's 0-based position in the body). `{{` and `}}` are literal braces.
/// Unknown placeholders and unbalanced braces are refused when the configuration loads.
public struct NameTemplate: Sendable, Hashable, CustomStringConvertible {
    /// A value a template can insert.
    public enum Placeholder: String, Sendable, Hashable, CaseIterable {
        /// The sanitised original filename.
        case filename
        /// The filename without its extension.
        case stem
        /// The extension with its dot (`.png`), or empty.
        case ext
        /// The field name.
        case field
        /// A random UUID.
        case uuid
        /// The part's 0-based index.
        case index
    }

    /// A piece of a parsed template.
    public enum Segment: Sendable, Hashable {
        /// Text copied as it is.
        case literal(String)
        /// A value inserted at render time.
        case placeholder(Placeholder)
    }

    /// The values to insert when rendering.
    public struct Values: Sendable, Hashable {
        /// For `{filename}`.
        public var filename: String
        /// For `{stem}`.
        public var stem: String
        /// For `{ext}` (with the dot, or empty).
        public var ext: String
        /// For `{field}`.
        public var field: String
        /// For `{uuid}`.
        public var uuid: String
        /// For `{index}`.
        public var index: Int

        /// - Parameters: one per placeholder.
        public init(filename: String, stem: String, ext: String, field: String, uuid: String, index: Int) {
            self.filename = filename
            self.stem = stem
            self.ext = ext
            self.field = field
            self.uuid = uuid
            self.index = index
        }
    }

    /// The template as written.
    public let text: String
    /// The parsed pieces, in order.
    public let segments: [Segment]

    /// Parses a template.
    /// - Parameter text: e.g. `{uuid}{ext}`.
    /// - Throws: ``ConfigurationValueError`` (`invalid_template`) for an unknown placeholder, an unclosed `{`,
    ///   a stray `}` or an empty template.
    public init(_ text: String) throws(ConfigurationValueError) {
        var segments: [Segment] = []
        var literal = ""
        var iterator = Array(text).makeIterator()
        var pending = iterator.next()
        func take() -> Character? {
            defer { pending = iterator.next() }
            return pending
        }
        while let character = take() {
            switch character {
            case "{" where pending == "{":
                _ = take()
                literal.append("{")
            case "}" where pending == "}":
                _ = take()
                literal.append("}")
            case "}":
                throw ConfigurationValueError(.invalidTemplate, "'\(text)': stray '}' (write '}}' for a literal brace)")
            case "{":
                var name = ""
                var closed = false
                while let next = take() {
                    if next == "}" {
                        closed = true
                        break
                    }
                    name.append(next)
                }
                guard closed else {
                    throw ConfigurationValueError(
                        .invalidTemplate,
                        "'\(text)': '{' without a closing '}' "
                            + "(write '{{' for a literal brace)")
                }
                guard let placeholder = Placeholder(rawValue: name) else {
                    let known = Placeholder.allCases.map { "{\($0.rawValue)}" }.joined(separator: " ")
                    throw ConfigurationValueError(
                        .invalidTemplate,
                        "'\(text)': unknown placeholder '{\(name)}' "
                            + "(known: \(known))")
                }
                if !literal.isEmpty {
                    segments.append(.literal(literal))
                    literal = ""
                }
                segments.append(.placeholder(placeholder))
            default:
                literal.append(character)
            }
        }
        if !literal.isEmpty { segments.append(.literal(literal)) }
        guard !segments.isEmpty else {
            throw ConfigurationValueError(.invalidTemplate, "empty template")
        }
        self.text = text
        self.segments = segments
    }

    /// The template as written.
    public var description: String { text }

    /// The literal text of the template (placeholders left out), for checks on characters the template itself
    /// puts into a name.
    public var literalText: String {
        segments.reduce(into: "") { text, segment in
            if case .literal(let literal) = segment { text += literal }
        }
    }

    /// The placeholders used, in order of appearance.
    public var placeholders: [Placeholder] {
        segments.compactMap { if case .placeholder(let placeholder) = $0 { return placeholder } else { return nil } }
    }

    /// The template with each placeholder replaced by its value.
    /// - Parameter values: the part's values.
    public func render(_ values: Values) -> String {
        var output = ""
        for segment in segments {
            switch segment {
            case .literal(let literal): output += literal
            case .placeholder(.filename): output += values.filename
            case .placeholder(.stem): output += values.stem
            case .placeholder(.ext): output += values.ext
            case .placeholder(.field): output += values.field
            case .placeholder(.uuid): output += values.uuid
            case .placeholder(.index): output += String(values.index)
            }
        }
        return output
    }
}
