/// How the body of a message is delimited (RFC 9112 §6.3).
public enum BodyFraming: Hashable, Sendable {
    /// No body.
    case none
    /// Exactly this many bytes.
    case contentLength(UInt64)
    /// The chunked transfer coding, ended by the last chunk and trailer section.
    case chunked
    /// Everything until the connection closes (responses only).
    case untilClose
}
