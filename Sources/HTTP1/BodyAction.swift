/// What a body decoder reports after being fed one span.
///
/// Each call reports at most one data range, so that the engine can move exactly those bytes
/// (`evbuffer_remove_buffer`) without copying them into Swift; it then feeds the rest of the span
/// (from `range.upperBound`, even when that rest is empty) to learn whether the body ended.
public enum BodyAction: Hashable, Sendable {
    /// Every byte of the span was consumed (framing only, or nothing); feed the next span.
    case needMore
    /// Body data at this range of the span fed. Bytes before the range were framing and are
    /// consumed too; continue with the bytes from `range.upperBound`.
    case data(Range<Int>)
    /// The body ended: `consumed` bytes of this span were framing; the rest belongs to the next message.
    case end(consumed: Int)
    /// The body framing is invalid; answer (400, or 502 for a response) and close.
    case error(HTTP1Error)
}
