extension Rule {
    /// `rename:`: templates for the forwarded field name and filename; at least one is set.
    public struct Rename: Sendable, Hashable {
        /// New field name (`field:`).
        public var field: NameTemplate?
        /// New filename (`filename:`).
        public var filename: NameTemplate?

        /// - Parameters:
        ///   - field: template for the field name (default nil: unchanged).
        ///   - filename: template for the filename (default nil: unchanged).
        public init(field: NameTemplate? = nil, filename: NameTemplate? = nil) {
            self.field = field
            self.filename = filename
        }
    }

    /// One `set_headers:` entry.
    public struct HeaderField: Sendable, Hashable {
        /// The header name (an HTTP token).
        public var name: String
        /// The value (no CR, LF or NUL).
        public var value: String

        /// - Parameters:
        ///   - name: the header name.
        ///   - value: the value.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// `on_exceed:`: what happens to a part larger than `max_bytes`.
    public enum ExceedAction: String, Sendable, Hashable, CaseIterable {
        /// Refuse the request (413; the default).
        case reject
        /// Forward the first `max_bytes` bytes.
        case truncate
        /// Drop the part.
        case strip
    }

    /// `reject:`: refuse the request when a part matches.
    public struct Reject: Sendable, Hashable {
        /// The status of the problem response, 400...499 (`status:`, default 403).
        public var status: Int

        /// The default status, 403.
        public static let defaultStatus = 403

        /// - Parameter status: a 4xx status (default 403).
        public init(status: Int = Self.defaultStatus) {
            self.status = status
        }
    }
}
