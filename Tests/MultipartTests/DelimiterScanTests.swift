import CDelimiterScan
import Testing

/// `partgate_find_pattern`, the parser's vector delimiter scan, against a plain search of the same bytes: each
/// variant (`memchr` only, SSE2, AVX2 where the CPU has it) and the one the parser uses.
@Suite("Delimiter scan")
struct DelimiterScanTests {
    /// The first occurrence by the test's plain search, or -1.
    private func expected(_ pattern: [UInt8], in data: [UInt8]) -> Int {
        ByteSearch.occurrences(of: pattern, in: data).first ?? -1
    }

    /// What every variant (`memchr` only, SSE2, AVX2) finds, when they agree; else -2.
    private func found(_ pattern: [UInt8], in data: [UInt8]) -> Int {
        let results = data.withUnsafeBufferPointer { bytes in
            pattern.withUnsafeBufferPointer { needle in
                [0, 1, 2].map {
                    partgate_find_pattern_using(bytes.baseAddress, bytes.count, needle.baseAddress, needle.count, $0)
                } + [partgate_find_pattern(bytes.baseAddress, bytes.count, needle.baseAddress, needle.count)]
            }
        }
        return Set(results).count == 1 ? results[0] : -2
    }

    /// A delimiter pattern (`CR LF - -` and a boundary of `boundaryLength` characters from `alphabet`).
    private func pattern(_ boundaryLength: Int, _ alphabet: [UInt8], _ random: inout SplitMix64) -> [UInt8] {
        [13, 10, 45, 45] + (0..<boundaryLength).map { _ in alphabet.randomElement(using: &random)! }
    }

    @Test func agreesWithAPlainSearchOnNearMisses() {
        // Data drawn from the pattern's own bytes, so first-and-last candidates and long partial matches are
        // everywhere; lengths around the 16- and 64-byte vector blocks and the scalar tail.
        let alphabet = Array("ab-\r\n".utf8)
        var random = SplitMix64(seed: 0x5CA7)
        for round in 0..<4000 {
            let needle = pattern(round % 40, Array("ab".utf8), &random)
            let count = Int.random(in: 0..<(round % 3 == 0 ? 300 : 140), using: &random)
            var data = (0..<count).map { _ in alphabet.randomElement(using: &random)! }
            if count >= needle.count, round % 2 == 0 {
                let at = Int.random(in: 0...(count - needle.count), using: &random)
                data.replaceSubrange(at..<(at + needle.count), with: needle)
            }
            #expect(found(needle, in: data) == expected(needle, in: data), "round \(round)")
        }
    }

    @Test func findsAPatternAtEveryPositionOfASpan() {
        var random = SplitMix64(seed: 7)
        for boundaryLength in [1, 12, 27, 28, 29, 60, 70] {
            let needle = pattern(boundaryLength, Array("0123456789abcdef".utf8), &random)
            let count = 200
            for at in 0...(count - needle.count) {
                var data = (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) }
                data.replaceSubrange(at..<(at + needle.count), with: needle)
                #expect(found(needle, in: data) == expected(needle, in: data), "length \(needle.count) at \(at)")
            }
        }
    }

    @Test func aPatternThatDoesNotFitIsNotFound() {
        let needle = Array("\r\n--boundary".utf8)
        #expect(found(needle, in: needle) == 0)
        #expect(found(needle, in: Array(needle.dropLast())) == -1)
        #expect(found(needle, in: []) == -1)
        #expect(found(Array(needle.prefix(1)), in: needle) == -1)  // shorter than 2: refused
        // Its prefix at the very end of a span is the parser's to hold back, not a match.
        #expect(found(needle, in: Array(repeating: 0x41, count: 100) + needle.dropLast(3)) == -1)
    }

    @Test func theFirstOfSeveralOccurrencesIsFound() {
        let needle = Array("\r\n--xyz".utf8)
        let data = Array(repeating: 0x0D, count: 70) + needle + Array(repeating: 0x7A, count: 5) + needle
        #expect(found(needle, in: data) == 70)
    }
}
