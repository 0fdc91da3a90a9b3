import Multipart
import Testing

@testable import ProxyEngine

@Suite struct SystemRandomWordsTests {
    /// One getrandom call gives two words; a third comes from the fallback generator. Over 1,000
    /// generators no word repeats, as a stuck or zero fill would make them.
    @Test func twoWordsFromOneCallThenTheFallback() {
        var words = Set<UInt64>()
        for _ in 0..<1_000 {
            var generator = SystemRandomWords()
            for _ in 0..<3 { words.insert(generator.next()) }
        }
        #expect(words.count == 3_000)
    }

    /// Fresh boundaries have the shape of ``Boundary/random()``'s and vary in every hex position.
    @Test func freshBoundariesVaryInEveryPosition() {
        var digitsAtPosition = [Set<UInt8>](repeating: [], count: 32)
        var seen = Set<Boundary>()
        for _ in 0..<2_000 {
            let bytes = Boundary.fresh().bytes
            #expect(bytes.starts(with: Array("partgate-".utf8)) && bytes.count == 41)
            for (position, digit) in bytes.dropFirst(9).enumerated() { digitsAtPosition[position].insert(digit) }
            seen.insert(Boundary(bytes)!)
        }
        #expect(seen.count == 2_000)
        #expect(digitsAtPosition.allSatisfy { $0.count == 16 })
    }
}
