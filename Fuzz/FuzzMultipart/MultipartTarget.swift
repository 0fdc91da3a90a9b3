import FuzzSupport
import Multipart

/// The multipart stream: one body fed whole and in fuzzer-chosen pieces, under a fuzzer-chosen boundary,
/// strictness and limits.
///
/// Invariants: no crash or hang; both feedings agree (identical merged events and error for an accepted
/// body; the same error, the same non-body events and consistent data for a rejected one); every body
/// event lies inside the body and is contiguous within its part (`EventLog`); a failed parser stays failed
/// (`Feeder`); what the parser holds stays within its limits (`HeldBytes`, at the end of the whole feeding and
/// at an input-chosen point of the split one); and the outcome is well-formed
/// (`StructureCheck`).
enum MultipartTarget {
    static func run(_ input: UnsafeRawBufferPointer) {
        let c = MultipartCase(input)
        let whole = Feeder.parse(c.body, boundary: c.boundary, limits: c.limits, strictness: c.strictness,
                                 checkHeld: [-1])
        StructureCheck.check(whole, c)
        let calls = Feeder.cutPoints(c.body.count, c.pieces).count
        let split = Feeder.parse(c.body, boundary: c.boundary, limits: c.limits, strictness: c.strictness,
                                 pieces: c.pieces, checkHeld: [c.checkpoint * calls / 256])
        StructureCheck.check(split, c)
        compare(whole, split, pieces: c.pieces)
    }

    static func compare(_ whole: ParseOutcome, _ split: ParseOutcome, pieces: [Int]) {
        guard whole.error != nil, split.error != nil else {
            invariant(whole == split,
                      "split \(pieces) disagrees with whole feeding:\n whole: \(whole)\n split: \(split)")
            return
        }
        // Rejected: a whole span may fail before emitting data that smaller pieces emitted, so only the
        // non-body events and the error must match, and each part's data must be a prefix of the other's.
        invariant(whole.error == split.error && whole.structure == split.structure,
                  "split \(pieces) disagrees with whole feeding:\n whole: \(whole)\n split: \(split)")
        for (a, b) in zip(whole.parts, split.parts) {
            let shorter = min(a.data.count, b.data.count)
            invariant(a.data[..<shorter] == b.data[..<shorter],
                      "part \(a.head.index) data differs between whole and split \(pieces) feedings")
        }
    }
}
