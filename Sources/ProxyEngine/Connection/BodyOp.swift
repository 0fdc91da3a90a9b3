/// One step of writing a request body upstream, recorded while a span is parsed and carried out after:
/// the parser never sees its span change under it.
package enum BodyOp: Equatable {
    /// Move `count` bytes found at `index` of the current input chain (zero-copy when whole chains move).
    case move(index: Int, count: Int)
    /// Copy `count` bytes from the recorder's scratch bytes at `start` (part heads, the close delimiter,
    /// and the few held-back bytes the parser re-emits from its delimiter pattern).
    case scratch(start: Int, count: Int)

    /// The bytes this op writes.
    package var count: Int {
        switch self {
        case .move(_, let count), .scratch(_, let count): return count
        }
    }
}
