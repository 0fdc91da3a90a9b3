/// What a head parser reports after being fed one span.
public enum HeadParseResult<Head: Hashable & Sendable>: Hashable, Sendable {
    /// Every byte of the span belongs to a head that is not finished yet; feed the next span.
    case needMore
    /// The head is complete. `consumed` bytes of this span belong to it; the bytes after them
    /// (body or next message) were not looked at. The parser is ready for the next head.
    case complete(Head, consumed: Int)
    /// The input is invalid. The parser stays failed until `reset()`; answer and close.
    case error(HTTP1Error)
}
