/// A configuration value that does not parse: a size, a duration, an address, a URL, a glob or a template.
///
/// The pure parsers in this folder throw it; the configuration loader adds the file, line and column of the
/// offending value and prints ``reason``. ``code`` is stable for tests and tools.
public struct ConfigurationValueError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of value failed to parse.
    public var code: Code
    /// A one-line, human-readable explanation that names the offending text and, where it helps, the fix.
    public var reason: String

    /// - Parameters:
    ///   - code: what kind of value failed to parse.
    ///   - reason: the explanation shown to the operator.
    public init(_ code: Code, _ reason: String) {
        self.code = code
        self.reason = reason
    }

    /// `reason`.
    public var description: String { reason }

    /// The kind of value that failed to parse.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The stable snake_case name.
        public let name: String

        private init(_ name: String) {
            self.name = name
        }

        /// `name`.
        public var description: String { name }

        /// A size such as `5MiB`.
        public static let invalidSize = Code("invalid_size")
        /// A duration such as `30s`.
        public static let invalidDuration = Code("invalid_duration")
        /// A listen address such as `127.0.0.1:8080` or `[::1]:8443`.
        public static let invalidAddress = Code("invalid_address")
        /// An upstream URL such as `https://uploads.internal:8443`.
        public static let invalidURL = Code("invalid_url")
        /// A host name.
        public static let invalidHost = Code("invalid_host")
        /// A glob such as `internal_*`.
        public static let invalidGlob = Code("invalid_glob")
        /// A rename template such as `{uuid}{ext}`.
        public static let invalidTemplate = Code("invalid_template")
    }
}
