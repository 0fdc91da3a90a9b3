import Multipart
import Testing

@testable import ProxyEngine

@Suite struct SystemRandomWordsTests {
    /// Generators with the default batch of two words, three words each (the third from a second fill):
    /// over 1,000 generators no word repeats, as a stuck or zero fill would make them.
    @Test func wordsFromSmallBatchesDoNotRepeat() {
        var words = Set<UInt64>()
        for _ in 0..<1_000 {
            var generator = SystemRandomWords()
            for _ in 0..<3 { words.insert(generator.next()) }
        }
        #expect(words.count == 3_000)
    }

    /// A worker's generator (64 words per fill) across ten refills: every word distinct.
    @Test func wordsAcrossRefillsDoNotRepeat() {
        var generator = SystemRandomWords(batch: 64)
        var words = Set<UInt64>()
        for _ in 0..<640 { words.insert(generator.next()) }
        #expect(words.count == 640)
    }

    /// Fresh boundaries, from ``Boundary/fresh()`` and from a worker-style batched generator, have the shape
    /// of ``Boundary/random()``'s and vary in every hex position.
    @Test(arguments: [false, true])
    func freshBoundariesVaryInEveryPosition(batched: Bool) {
        var digitsAtPosition = [Set<UInt8>](repeating: [], count: 32)
        var seen = Set<Boundary>()
        var generator = SystemRandomWords(batch: 64)
        for _ in 0..<2_000 {
            let bytes = batched ? Boundary.random(using: &generator).bytes : Boundary.fresh().bytes
            #expect(bytes.starts(with: Array("partgate-".utf8)) && bytes.count == 41)
            for (position, digit) in bytes.dropFirst(9).enumerated() { digitsAtPosition[position].insert(digit) }
            seen.insert(Boundary(bytes)!)
        }
        #expect(seen.count == 2_000)
        #expect(digitsAtPosition.allSatisfy { $0.count == 16 })
    }
}
