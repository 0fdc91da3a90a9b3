/// What a structure walker concluded about a part's bytes.
package enum StructureVerdict: Sendable, Hashable, CustomStringConvertible {
    /// The bytes are one well-formed file of the format, and nothing else.
    case valid
    /// The bytes are not (or not only) a well-formed file of the format; the reason is one sentence.
    case invalid(String)

    /// "valid", or the reason.
    package var description: String {
        switch self {
        case .valid: return "valid"
        case .invalid(let reason): return reason
        }
    }
}

/// A streaming checker of one file format's structure, fed a part's bytes in arbitrary spans.
///
/// Walkers hold a few counters and at most a chunk header, never the data. Once a walker fails it stays failed
/// and ignores further bytes, so the stage may act on ``failure`` as soon as it is set; a walker that has not
/// failed decides at ``finish()`` (truncated files, a missing end marker, a size field that disagrees).
protocol StructureWalking: Sendable {
    /// Takes the next bytes of the part.
    mutating func feed(_ bytes: UnsafeRawBufferPointer)
    /// Why the bytes seen so far cannot be a valid file, or nil while they still can.
    var failure: String? { get }
    /// The verdict once the part has ended.
    func finish() -> StructureVerdict
}
