/// Finds where a two-byte sequence starts, sixteen positions per step.
///
/// The delimiter search used to `memchr` for the pattern's first byte (CR, or LF in an LF-only body) and check
/// the rest at each hit. In binary data that byte comes every ~256 bytes, so a 1 GiB upload made ~4 million
/// `memchr` calls, each restarted for a few hundred bytes (9 % of the proxy's CPU in perf). The pair CR LF (or
/// LF `-`) comes about every 64 KiB of random data, so testing both bytes at once leaves almost no false hits.
/// The compiler turns the SIMD16 compares into `pcmpeqb`/`pand`/`pmovmskb` with the baseline x86-64 target.
package enum PairScan {
    /// The first index `i` in `start..<count` where `bytes[i] == first` and either `bytes[i + 1] == second` or
    /// `i` is the last index (a pattern may continue in the next span); nil if there is none.
    /// Not inlined: its loop compiles the same wherever it is called from.
    @inline(never)
    package static func find(
        _ bytes: UnsafePointer<UInt8>, from start: Int, count: Int, first: UInt8, second: UInt8
    ) -> Int? {
        let raw = UnsafeRawPointer(bytes)
        var index = start
        if count &- index > 32 {
            let firsts = SIMD16<UInt8>(repeating: first)
            let seconds = SIMD16<UInt8>(repeating: second)
            // Each step reads bytes index ..< index + 33: the second load of each half is one byte ahead.
            while index &+ 33 <= count {
                let low = (raw.loadUnaligned(fromByteOffset: index, as: SIMD16<UInt8>.self) .== firsts)
                    .& (raw.loadUnaligned(fromByteOffset: index &+ 1, as: SIMD16<UInt8>.self) .== seconds)
                let high = (raw.loadUnaligned(fromByteOffset: index &+ 16, as: SIMD16<UInt8>.self) .== firsts)
                    .& (raw.loadUnaligned(fromByteOffset: index &+ 17, as: SIMD16<UInt8>.self) .== seconds)
                // Tested as two words, not with `any(_:)`: inlined into the parser, `any` became a 20-instruction
                // horizontal reduction per step instead of one `movmskps`.
                let hits = unsafeBitCast(low .| high, to: SIMD2<UInt64>.self)
                if hits[0] | hits[1] != 0 {
                    if let lane = firstLane(low) { return index &+ lane }
                    return index &+ 16 &+ firstLane(high)!
                }
                index &+= 32
            }
        }
        while index < count {
            if bytes[index] == first, index &+ 1 == count || bytes[index &+ 1] == second { return index }
            index &+= 1
        }
        return nil
    }

    /// The lowest lane set in `mask`, or nil.
    @inline(__always)
    private static func firstLane(_ mask: SIMDMask<SIMD16<Int8>>) -> Int? {
        let words = unsafeBitCast(SIMD16<UInt8>(repeating: 0).replacing(with: 0xFF, where: mask), to: SIMD2<UInt64>.self)
        if words[0] != 0 { return words[0].trailingZeroBitCount >> 3 }
        if words[1] != 0 { return 8 &+ (words[1].trailingZeroBitCount >> 3) }
        return nil
    }
}
