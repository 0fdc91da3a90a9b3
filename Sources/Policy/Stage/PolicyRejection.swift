/// Why the policy stage refused a request: what the engine answers with (RFC 9457 problem, `flag` = ``rule``)
/// and logs.
public struct PolicyRejection: Error, Sendable, Hashable, CustomStringConvertible {
    /// What fired.
    public enum Reason: String, Sendable, Hashable, CaseIterable {
        /// A rule with `reject:` matched (its status, 403 by default).
        case rule
        /// No rule matched and the route says `default: reject` (403).
        case defaultAction = "default"
        /// `sniff.allow` does not list the sniffed type (415).
        case typeNotAllowed = "type_not_allowed"
        /// `sniff.extension_must_match`: the filename's extension does not fit the sniffed type (415).
        case extensionMismatch = "extension_mismatch"
        /// `sniff.validate`: the bytes are not one well-formed file of their type, e.g. a polyglot (415).
        case invalidStructure = "invalid_structure"
        /// `max_bytes` with `on_exceed: reject`, or `strip` after the part's first bytes were forwarded (413).
        case tooLarge = "too_large"
        /// `unsafe_filenames: reject`, or a filename the encoder cannot write under `allow` (400).
        case unsafeFilename = "unsafe_filename"
        /// A `charset=` or `_charset_` value outside the route's `charsets:` (415).
        case charset
    }

    /// The HTTP status: 403 policy, 413 size, 415 type, 400 malformed name, or the rule's own status.
    public var status: Int
    /// What fired.
    public var reason: Reason
    /// The rule's name; for checks of the route itself `default`, `unsafe_filename` or `charset`.
    public var rule: String
    /// The zero-based index of the part that was refused.
    public var partIndex: Int
    /// One sentence for the problem response and the log (names the part's policy facts, never internals).
    public var detail: String

    /// - Parameters:
    ///   - status: the HTTP status.
    ///   - reason: what fired.
    ///   - rule: the rule or route-level flag name.
    ///   - partIndex: the refused part's index.
    ///   - detail: one sentence.
    public init(status: Int, reason: Reason, rule: String, partIndex: Int, detail: String) {
        self.status = status
        self.reason = reason
        self.rule = rule
        self.partIndex = partIndex
        self.detail = detail
    }

    /// A short title for the reason, e.g. "type not allowed".
    public var title: String {
        switch reason {
        case .rule: return "refused by rule"
        case .defaultAction: return "part not allowed"
        case .typeNotAllowed: return "type not allowed"
        case .extensionMismatch: return "extension does not match content"
        case .invalidStructure: return "invalid file structure"
        case .tooLarge: return "part too large"
        case .unsafeFilename: return "unsafe filename"
        case .charset: return "charset not allowed"
        }
    }

    /// "415 type_not_allowed by rule 'avatar' at part 2: …".
    public var description: String {
        "\(status) \(reason.rawValue) by '\(rule)' at part \(partIndex): \(detail)"
    }
}
