/// A shell-style wildcard pattern: `*` matches any run of characters (also none, also `/`), `?` matches
/// exactly one, `\` makes the next character literal (`\*`, `\?`, `\\`). No character classes.
///
/// Matching works on Unicode scalars. Case sensitivity is chosen per use: field names, filenames are
/// matched case-sensitively (a backend sees `Avatar` and `avatar` as different fields); media types,
/// extensions and host names case-insensitively (they are case-insensitive by their RFCs), folding ASCII
/// letters only.
public struct Glob: Sendable, Hashable, CustomStringConvertible {
    /// One element of a compiled pattern.
    enum Token: Hashable, Sendable {
        case literal(Unicode.Scalar)
        case any
        case star
    }

    /// The pattern as written.
    public let pattern: String
    /// Whether ASCII letters match regardless of case.
    public let caseInsensitive: Bool
    private let tokens: [Token]

    /// Compiles a pattern.
    /// - Parameters:
    ///   - pattern: the pattern, e.g. `internal_*`, `image/*` or `*.tar.gz`.
    ///   - caseInsensitive: whether ASCII letters match regardless of case (default false).
    /// - Throws: ``ConfigurationValueError`` (`invalid_glob`) for a pattern that ends in a lone `\`.
    public init(_ pattern: String, caseInsensitive: Bool = false) throws(ConfigurationValueError) {
        var tokens: [Token] = []
        var escaped = false
        for scalar in pattern.unicodeScalars {
            if escaped {
                tokens.append(.literal(caseInsensitive ? Self.fold(scalar) : scalar))
                escaped = false
                continue
            }
            switch scalar {
            case "\\": escaped = true
            case "*": if tokens.last != .star { tokens.append(.star) }
            case "?": tokens.append(.any)
            default: tokens.append(.literal(caseInsensitive ? Self.fold(scalar) : scalar))
            }
        }
        if escaped {
            throw ConfigurationValueError(
                .invalidGlob, "'\(pattern)' ends in a lone '\\' (write '\\\\' for a backslash)")
        }
        self.pattern = pattern
        self.caseInsensitive = caseInsensitive
        self.tokens = tokens
    }

    /// The pattern as written.
    public var description: String { pattern }

    /// Whether the pattern is `*` (matches every string).
    public var matchesEverything: Bool { tokens == [.star] }

    /// Whether the pattern has no wildcard (matches exactly one string, up to case).
    public var isLiteral: Bool {
        tokens.allSatisfy { if case .literal = $0 { return true } else { return false } }
    }

    /// Whether `text` matches the whole pattern.
    ///
    /// Linear in practice: on a mismatch after a `*`, only the most recent `*` is retried one character
    /// further, so the worst case is O(pattern × text), never exponential.
    /// - Parameter text: the string to test.
    public func matches(_ text: String) -> Bool {
        let scalars = Array(text.unicodeScalars)
        var patternIndex = 0
        var textIndex = 0
        var starPattern = -1
        var starText = 0
        while textIndex < scalars.count {
            if patternIndex < tokens.count {
                switch tokens[patternIndex] {
                case .star:
                    starPattern = patternIndex
                    starText = textIndex
                    patternIndex += 1
                    continue
                case .any:
                    patternIndex += 1
                    textIndex += 1
                    continue
                case .literal(let expected):
                    let actual = caseInsensitive ? Self.fold(scalars[textIndex]) : scalars[textIndex]
                    if actual == expected {
                        patternIndex += 1
                        textIndex += 1
                        continue
                    }
                }
            }
            guard starPattern >= 0 else { return false }
            starText += 1
            textIndex = starText
            patternIndex = starPattern + 1
        }
        while patternIndex < tokens.count, tokens[patternIndex] == .star { patternIndex += 1 }
        return patternIndex == tokens.count
    }

    /// ASCII upper-case letters to lower case; everything else unchanged.
    private static func fold(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        ("A"..."Z").contains(scalar) ? Unicode.Scalar(scalar.value + 32)! : scalar
    }
}
