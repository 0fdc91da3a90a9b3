import Multipart

/// What the engine writes after ``PolicyStage/partHead(_:)``.
public enum PolicyHeadAction: Sendable, Hashable {
    /// Encode this head now (the part was decided at head time); its bytes follow as ``PolicyBodyAction``s.
    case writeHead(PartHead)
    /// Write nothing now: the part is held (sniff window) or stripped. Later actions say which.
    case none
    /// The request is refused (also in ``PolicyStage/rejection``); write nothing more.
    case reject(PolicyRejection)
}
