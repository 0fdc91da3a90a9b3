import Multipart

/// What the engine writes for one ``PolicyStage/partBody(_:)`` call, whose span is `bytes`.
///
/// Ranges index the span just given: forwarding `bytes[range]` moves bytes the engine still holds in its input
/// (zero-copy); only `held` is owned by the stage and must be copied.
public enum PolicyBodyAction: Sendable, Hashable {
    /// Write nothing (held, stripped, or past a `truncate` cap).
    case none
    /// Write `bytes[range]` (a prefix of the span: all of it, or up to a `truncate` cap).
    case forward(Range<Int>)
    /// The held part was decided: encode `head`, write `held` (the part's first bytes, from earlier calls),
    /// then `bytes[forward]` (possibly empty).
    case release(head: PartHead, held: [UInt8], forward: Range<Int>)
    /// The request is refused (also in ``PolicyStage/rejection``); write nothing more, not even this span.
    case reject(PolicyRejection)
}
