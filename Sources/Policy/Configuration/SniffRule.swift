/// A rule's `sniff:` action: check the part's real type, sniffed from its bytes.
public struct SniffRule: Sendable, Hashable {
    /// What happens when the sniffed type is not allowed or the extension does not match.
    public enum MismatchAction: String, Sendable, Hashable, CaseIterable {
        /// Refuse the request (415; the default).
        case reject
        /// Drop the part.
        case strip
    }

    /// Case-insensitive globs of the allowed sniffed types (`allow:`); nil allows every type (useful with
    /// ``setContentType`` or ``validate`` alone).
    public var allow: [Glob]?
    /// On a mismatch (`on_mismatch:`, default `reject`).
    public var onMismatch: MismatchAction
    /// Forward the sniffed type as the part's Content-Type instead of the declared one (`set_content_type:`,
    /// default false).
    public var setContentType: Bool
    /// The filename's extension must be one the sniffed type is known by (`extension_must_match:`, default
    /// false).
    public var extensionMustMatch: Bool
    /// Walk the structure of PNG, JPEG, GIF, WebP and PDF while streaming, so polyglots fail (`validate:`,
    /// default false).
    public var validate: Bool

    /// - Parameters:
    ///   - allow: allowed type globs (default nil: any type).
    ///   - onMismatch: `reject` (default) or `strip`.
    ///   - setContentType: forward the sniffed type (default false).
    ///   - extensionMustMatch: check the extension against the type (default false).
    ///   - validate: structural validation (default false).
    public init(
        allow: [Glob]? = nil,
        onMismatch: MismatchAction = .reject,
        setContentType: Bool = false,
        extensionMustMatch: Bool = false,
        validate: Bool = false
    ) {
        self.allow = allow
        self.onMismatch = onMismatch
        self.setContentType = setContentType
        self.extensionMustMatch = extensionMustMatch
        self.validate = validate
    }
}
