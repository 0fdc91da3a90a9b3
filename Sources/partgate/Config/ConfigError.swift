/// Why a configuration file was refused: every problem found, each with its file, line and column.
///
/// The one error type of configuration loading (``ConfigLoader``). The loader works like a compiler: it
/// keeps going after a problem and reports as many as it can find in one pass, sorted by position. Only a
/// YAML syntax error, an unreadable file or an unsupported `version` stop it early, since nothing after them
/// can be read reliably.
struct ConfigError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The problems, in file order; never empty.
    var diagnostics: [ConfigDiagnostic]

    /// - Parameter diagnostics: the problems found (at least one).
    init(_ diagnostics: [ConfigDiagnostic]) {
        precondition(!diagnostics.isEmpty, "a ConfigError needs at least one diagnostic")
        self.diagnostics = diagnostics
    }

    /// One line per diagnostic: `file:line:column: error: reason`.
    var description: String { diagnostics.map(\.description).joined(separator: "\n") }

    /// The kind of a configuration problem: a stable snake_case name for tests and tools.
    struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The stable name.
        let name: String

        private init(_ name: String) {
            self.name = name
        }

        /// `name`.
        var description: String { name }

        /// The configuration file (or a certificate, key or CA file it names) cannot be read.
        static let unreadableFile = Code("unreadable_file")
        /// A certificate, key or CA file holds no usable PEM block of the expected kind.
        static let invalidPEM = Code("invalid_pem")
        /// The YAML does not parse (the message is libyaml's).
        static let yamlSyntax = Code("yaml_syntax")
        /// A key appears twice in one mapping.
        static let duplicateKey = Code("duplicate_key")
        /// A key this version does not know.
        static let unknownKey = Code("unknown_key")
        /// A required key is missing.
        static let missingKey = Code("missing_key")
        /// A value of the wrong YAML type (a list where a mapping belongs, a string for a number, …).
        static let wrongType = Code("wrong_type")
        /// A value of the right type that is not allowed (an unknown choice, an out-of-range number, a bad
        /// address, URL, glob, header name, …).
        static let invalidValue = Code("invalid_value")
        /// A size that does not follow the size grammar.
        static let invalidSize = Code("invalid_size")
        /// A duration that does not follow the duration grammar.
        static let invalidDuration = Code("invalid_duration")
        /// A rename template with an unknown placeholder or unbalanced braces.
        static let invalidTemplate = Code("invalid_template")
        /// A strict flag or action that does not exist, or an action the flag does not permit.
        static let invalidStrictness = Code("invalid_strictness")
        /// `version` is not 1.
        static let unsupportedVersion = Code("unsupported_version")
        /// A route names an upstream that `upstreams:` does not define.
        static let undefinedUpstream = Code("undefined_upstream")
        /// Two routes, or two rules of one route, share a name.
        static let duplicateName = Code("duplicate_name")
        /// Two listeners (or a listener and the admin listener) would bind the same address.
        static let duplicateAddress = Code("duplicate_address")
        /// A list that must not be empty is (no listeners, no routes, …).
        static let emptyList = Code("empty_list")
        /// Settings that contradict each other (`tls:` on an `http://` upstream, `strip` with `rename`, …).
        static let conflict = Code("conflict")
    }
}
