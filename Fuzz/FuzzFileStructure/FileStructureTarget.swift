import FuzzSupport
import Policy
import Sniff

/// The structure walkers (`sniff.validate`) and the MIME sniffer on arbitrary part bytes: the code that reads
/// untrusted file contents.
///
/// 1. Walkers (PNG, JPEG, GIF, WebP, PDF, every one on every input): never crash; the failure and the
///    verdict are the same whether the bytes come whole, one at a time, or cut at two points the input
///    chooses; a failure never changes or clears once set, and `finish()` reports it; a walker holds at
///    most ``maxHeldUnits`` units of variable-size storage (it never buffers the data).
/// 2. Sniffer: the pointer and collection entry points agree; a `SniffWindow` filled in pieces holds the
///    input's first `sniffWindowSize` bytes and sniffs as they do; and a result marked final on a prefix
///    (`complete: false`) names the same type and rule as the sniff of the whole input (the policy stage
///    decides as soon as a result is final, so a later byte must not change it).
enum FileStructureTarget {
    static let maxHeldUnits = 64

    static func run(_ input: UnsafeRawBufferPointer) {
        let cuts = cutPoints(in: input)
        for type in StructureWalker.validatedTypes {
            let whole = WalkOutcome.walk(type, input, cuts: [])
            let bytewise = WalkOutcome.walk(type, input, cuts: Array(0..<input.count))
            invariant(whole == bytewise, "\(type) byte by byte differs:\n whole \(whole)\n bytes \(bytewise)")
            let split = WalkOutcome.walk(type, input, cuts: cuts)
            invariant(whole == split, "\(type) cut at \(cuts) differs:\n whole \(whole)\n split \(split)")
        }
        checkSniffer(input, cuts: cuts)
    }

    static func checkSniffer(_ input: UnsafeRawBufferPointer, cuts: [Int]) {
        let bytes = Array(input)
        let complete = bytes.count <= sniffWindowSize
        let full = MIMESniffer.sniff(input, complete: complete)
        invariant(full == MIMESniffer.sniff(bytes, complete: complete),
                  "the pointer and collection sniffs differ: \(full) against \(MIMESniffer.sniff(bytes, complete: complete))")
        invariant(full.isFinal || !complete, "a complete resource sniffed as provisional: \(full)")

        var window = SniffWindow()
        var start = 0
        for end in cuts.filter({ $0 > 0 && $0 < input.count }) + [input.count] where end > start {
            let taken = window.append(UnsafeRawBufferPointer(rebasing: input[start..<end]))
            invariant(taken == min(end - start, sniffWindowSize - min(start, sniffWindowSize)),
                      "the window took \(taken) of \(end - start) bytes at \(start)")
            start = end
        }
        invariant(window.bytes[...] == bytes.prefix(sniffWindowSize), "the window holds other bytes than the input's")
        invariant(window.sniff(complete: complete) == full, "the window sniffs \(window.sniff(complete: complete)), the input \(full)")

        // Prefixes: every length up to 48, the two cut points and the middle of the window.
        let windowCount = min(bytes.count, sniffWindowSize)
        var lengths = Set(0...min(48, windowCount))
        lengths.formUnion(cuts.filter { $0 <= windowCount })
        lengths.insert(windowCount / 2)
        for length in lengths.sorted() where length < bytes.count {
            let early = bytes.withUnsafeBytes { MIMESniffer.sniff(UnsafeRawBufferPointer(rebasing: $0[0..<length]), complete: false) }
            guard early.isFinal else { continue }
            invariant(early.type == full.type && early.signature == full.signature,
                      "\(length) bytes sniffed final as \(early), all \(bytes.count) as \(full)")
        }
    }
}
