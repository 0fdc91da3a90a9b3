import Sniff
import Testing

/// Mutated fixtures and random bytes: every input gets a catalog type without trapping, and final answers hold.
extension MIMESnifferTests {
    @Test(arguments: SignatureCase.all)
    func mutatedFixturesStayWellBehaved(_ fixture: SignatureCase) {
        var random = SeededGenerator(
            seed: UInt64(truncatingIfNeeded: fixture.name.utf8.reduce(7) { $0 &* 31 &+ Int($1) })
        )
        let interesting: [UInt8] = [0x00, 0x01, 0x20, 0x2D, 0x3C, 0x3E, 0x7F, 0x80, 0xFF]
        for _ in 0..<40 {
            var bytes = fixture.bytes
            for _ in 0..<Int.random(in: 1...4, using: &random) where !bytes.isEmpty {
                let index = Int.random(in: 0..<bytes.count, using: &random)
                bytes[index] =
                    Bool.random(using: &random)
                    ? interesting.randomElement(using: &random)! : UInt8.random(in: 0...255, using: &random)
            }
            let length = Int.random(in: 0...bytes.count, using: &random)
            let prefix = Array(bytes.prefix(length))
            let whole = sniff(bytes, complete: true)
            let partial = sniff(prefix, complete: false)
            #expect(SniffedType.all.contains(whole.type))
            #expect(SniffedType.all.contains(partial.type))
            if partial.isFinal {
                #expect(partial == whole, "\(fixture.name): prefix \(length) said \(partial), whole says \(whole)")
            }
        }
    }

    @Test func randomBytesStayWellBehaved() {
        var random = SeededGenerator(seed: 1445)
        for round in 0..<300 {
            let count = Int.random(in: 0...2 * sniffWindowSize, using: &random)
            // Half the rounds stay in printable ASCII, so the text rules are exercised too.
            let bytes = (0..<count).map { _ in
                round.isMultiple(of: 2)
                    ? UInt8.random(in: 0x20...0x7E, using: &random) : UInt8.random(in: 0...255, using: &random)
            }
            let result = sniff(bytes, complete: true)
            #expect(SniffedType.all.contains(result.type))
            #expect(result.isFinal)
            let cut = Int.random(in: 0...count, using: &random)
            let early = sniff(Array(bytes.prefix(cut)), complete: false)
            if early.isFinal { #expect(early == result) }
        }
    }
}
