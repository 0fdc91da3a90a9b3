import Multipart

/// What the engine writes after ``PolicyStage/partEnd()``.
public enum PolicyEndAction: Sendable, Hashable {
    /// Nothing: the part was stripped, so nothing of it was or will be written.
    case none
    /// End the part whose head was written earlier.
    case endPart
    /// The held part was decided at its end: encode `head`, write `held` (all its forwarded bytes), end it.
    case release(head: PartHead, held: [UInt8])
    /// The request is refused (also in ``PolicyStage/rejection``); write nothing more.
    case reject(PolicyRejection)
}
