import FuzzSupport
import Policy
import Sniff

/// What a structure walker concluded from one feeding of a part's bytes.
struct WalkOutcome: Equatable, CustomStringConvertible {
    /// `failure` once every byte was fed.
    var failure: String?
    /// `finish()`.
    var verdict: StructureVerdict

    var description: String { "failure \(failure ?? "none"), verdict \(verdict)" }

    /// Feeds `input` to a fresh walker for `type` in the pieces `cuts` makes (sorted offsets inside the input).
    /// Checks on the way that a failure, once set, never changes, and what the walker holds stays small.
    static func walk(_ type: SniffedType, _ input: UnsafeRawBufferPointer, cuts: [Int]) -> WalkOutcome {
        var walker = StructureWalker(for: type)!
        var start = 0
        var firstFailure: String?
        for end in cuts.filter({ $0 > 0 && $0 < input.count }) + [input.count] where end > start {
            walker.feed(UnsafeRawBufferPointer(rebasing: input[start..<end]))
            start = end
            if let failure = walker.failure {
                if let firstFailure {
                    invariant(failure == firstFailure, "\(type): failure \"\(firstFailure)\" became \"\(failure)\"")
                }
                firstFailure = failure
            } else {
                invariant(firstFailure == nil, "\(type): failure \"\(firstFailure!)\" was cleared")
            }
        }
        let held = HeldBytes.measure(walker)
        invariant(held <= FileStructureTarget.maxHeldUnits, "\(type) walker holds \(held) units")
        let verdict = walker.finish()
        if let failure = walker.failure {
            invariant(verdict == .invalid(failure), "\(type): failed with \"\(failure)\" but finishes \(verdict)")
        }
        return WalkOutcome(failure: walker.failure, verdict: verdict)
    }
}
