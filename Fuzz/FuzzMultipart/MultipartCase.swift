import FuzzSupport
import Multipart

/// One FuzzMultipart test case, decoded from the input:
///
///     [boundary length][boundary…][strictness ×3][limits ×2][checkpoint][piece count][piece sizes…][body…]
///
/// All-zero configuration bytes mean the default strictness and limits, and a piece count of zero means
/// byte-by-byte feeding. The checkpoint places the split feeding's extra held-memory check (in 256ths
/// of its calls): reflection is too slow to measure after every call, so the fuzzer explores where.
/// `Fuzz/make-seeds.py` writes seeds in this layout.
struct MultipartCase {
    var boundary: Boundary
    var strictness: Strictness
    var limits: MultipartLimits
    /// Piece sizes for the split feeding, used in turn.
    var pieces: [Int]
    /// Where in the split feeding to measure what the parser holds, in 256ths of its calls.
    var checkpoint: Int
    var body: UnsafeRawBufferPointer

    /// The flags whose action can be chosen, in declaration order; each takes two bits of the strictness word.
    static let choosableFlags = StrictFlag.allCases.filter { $0.permittedActions.count > 1 }
    static let actionOrder: [StrictAction] = [.reject, .normalize, .allow]

    init(_ bytes: UnsafeRawBufferPointer) {
        var input = FuzzInput(bytes)
        boundary = FuzzBoundary.read(from: &input)
        strictness = Self.strictness(input.integer(bytes: 3))
        limits = Self.limits(small: input.byte(), scale: input.byte())
        checkpoint = Int(input.byte())
        let count = Int(input.byte() % 16)
        pieces = (0..<count).map { _ in 1 + Int(input.byte()) }
        if pieces.isEmpty { pieces = [1] }
        body = input.rest()
    }

    /// Two bits per choosable flag: 0 keeps the default, otherwise an index into its permitted actions.
    static func strictness(_ word: UInt64) -> Strictness {
        var strictness = Strictness()
        for (index, flag) in choosableFlags.enumerated() {
            let choice = Int(word >> UInt64(2 * index)) & 3
            guard choice != 0 else { continue }
            let permitted = actionOrder.filter(flag.permittedActions.contains)
            do {
                try strictness.setAction(permitted[(choice - 1) % permitted.count], for: flag)
            } catch {
                fatalError("harness bug: \(error)")
            }
        }
        return strictness
    }

    /// Bit i of `small` replaces limit i with a small value derived from `scale`, so that every limit can
    /// be reached with short inputs.
    static func limits(small: UInt8, scale: UInt8) -> MultipartLimits {
        var limits = MultipartLimits()
        let s = Int(scale)
        if small & 0x01 != 0 { limits.parts = 1 + s % 8 }
        if small & 0x02 != 0 { limits.partHeaderBytes = 8 + 4 * s }
        if small & 0x04 != 0 { limits.headerLines = 1 + s % 4 }
        if small & 0x08 != 0 { limits.preambleBytes = s % 64 }
        if small & 0x10 != 0 { limits.epilogueBytes = (s >> 2) % 64 }
        if small & 0x20 != 0 { limits.fieldBytes = Int64(8 * s) }
        return limits
    }
}
