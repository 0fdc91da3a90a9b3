/// The one error type of the `HTTP1` module.
///
/// An error is a stable ``Code`` (a snake_case name such as `"obs_fold"` that a problem+json body can
/// carry, and a suggested HTTP status) plus the byte offset where the parser gave up. Offsets count
/// from the first byte the parser was fed for this message head (head parsers) or this body (body
/// decoders), so they do not depend on how the input was split into spans.
///
/// Suggested statuses are for errors in a *request*. When an error comes from the upstream side (the
/// response parser or a response body), the proxy answers 502 whatever the code says.
public struct HTTP1Error: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong.
    public var code: Code
    /// Byte offset of the offending byte within the head or body being parsed, when known.
    public var offset: Int?

    /// Creates an error.
    /// - Parameters:
    ///   - code: What went wrong.
    ///   - offset: Offset of the offending byte within the message head or body, if known.
    public init(_ code: Code, offset: Int? = nil) {
        self.code = code
        self.offset = offset
    }

    /// The HTTP status a server should answer with when this error comes from a request.
    public var suggestedStatus: Int { code.suggestedStatus }

    /// `name` and, when known, `@offset`: for example `bare_lf@17`.
    public var description: String {
        if let offset {
            return "\(code.name)@\(offset)"
        }
        return code.name
    }
}
