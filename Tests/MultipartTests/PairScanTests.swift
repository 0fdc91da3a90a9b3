import Multipart
import Testing

/// ``PairScan/find(_:from:count:first:second:)`` against a byte-by-byte reference: every start and end
/// around the 16- and 32-byte steps, pairs in every lane and across the step boundaries, and random data
/// dense in the two bytes.
@Suite("PairScan")
struct PairScanTests {
    static func reference(_ bytes: [UInt8], from start: Int, count: Int, _ first: UInt8, _ second: UInt8) -> Int? {
        var index = start
        while index < count {
            if bytes[index] == first, index + 1 == count || bytes[index + 1] == second { return index }
            index += 1
        }
        return nil
    }

    static func found(_ bytes: [UInt8], from start: Int, count: Int, _ first: UInt8, _ second: UInt8) -> Int? {
        bytes.withUnsafeBufferPointer {
            PairScan.find($0.baseAddress!, from: start, count: count, first: first, second: second)
        }
    }

    @Test func everyPlacementOfOnePairUnderEveryBound() {
        var mismatches = 0
        var checked = 0
        for length in [1, 2, 15, 16, 17, 31, 32, 33, 34, 48, 64, 65, 97] {
            for at in 0..<length {
                var bytes = [UInt8](repeating: 0x41, count: length)
                bytes[at] = 13
                if at + 1 < length { bytes[at + 1] = 10 }
                for start in 0...min(length, 40) {
                    for end in Set([start, length, max(start, length - 1), max(start, at + 1), max(start, at)]) {
                        checked += 1
                        if Self.found(bytes, from: start, count: end, 13, 10)
                            != Self.reference(bytes, from: start, count: end, 13, 10) { mismatches += 1 }
                    }
                }
            }
        }
        #expect(checked > 5_000)
        #expect(mismatches == 0)
    }

    @Test func aFirstByteWithoutItsSecondIsSkippedUnlessItEndsTheSpan() {
        // CR followed by anything but LF, in every lane: no hit; CR as the last byte: a hit.
        for at in 0..<70 {
            var bytes = [UInt8](repeating: 0x30, count: 72)
            bytes[at] = 13
            bytes[at + 1] = 13
            #expect(Self.found(bytes, from: 0, count: 72, 13, 10) == nil)
            #expect(Self.found(bytes, from: 0, count: at + 1, 13, 10) == at)
            #expect(Self.found(bytes, from: 0, count: at + 2, 13, 10) == at + 1)
        }
    }

    @Test(arguments: [(UInt8(13), UInt8(10)), (UInt8(10), UInt8(ascii: "-"))])
    func randomBytesDenseInThePair(first: UInt8, second: UInt8) {
        var random = SplitMix64(seed: 0x5041_4952 ^ UInt64(first))
        let alphabet: [UInt8] = [first, second, 0x00, 0xFF, 13, 10, UInt8(ascii: "-"), 0x41]
        var mismatches = 0
        for _ in 0..<3_000 {
            let length = Int.random(in: 0...200, using: &random)
            let bytes = (0..<length).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &random)] }
            let start = length == 0 ? 0 : Int.random(in: 0...length, using: &random)
            let end = Int.random(in: start...length, using: &random)
            // Every hit in order, as the delimiter search walks them.
            var position = start
            while true {
                let got = Self.found(bytes, from: position, count: end, first, second)
                if got != Self.reference(bytes, from: position, count: end, first, second) { mismatches += 1 }
                guard let hit = got else { break }
                position = hit + 1
            }
        }
        #expect(mismatches == 0)
    }
}
