import Sniff
import Testing

@Suite struct SniffWindowTests {
    /// A PNG followed by text, longer than the window.
    static let longPart: [UInt8] =
        SignatureCase.images.first { $0.type == .png }!.bytes
        + [UInt8](repeating: 0x41, count: 3000)

    @Test func takesOnlyWhatFits() {
        var window = SniffWindow()
        #expect(window.isEmpty)
        #expect(window.remainingCapacity == sniffWindowSize)
        let taken = Self.longPart.withUnsafeBytes { window.append($0) }
        #expect(taken == sniffWindowSize)
        #expect(window.isFull)
        #expect(window.count == sniffWindowSize)
        #expect(window.bytes == Array(Self.longPart.prefix(sniffWindowSize)))
        #expect(Self.longPart.withUnsafeBytes { window.append($0) } == 0, "a full window takes nothing")
        #expect(window.append(contentsOf: [1, 2, 3]) == 0)
        #expect(window.count == sniffWindowSize)
    }

    @Test(arguments: [1, 2, 7, 100, 1444, 1445, 1446])
    func spansOfAnySizeGiveTheSameBytesAndResult(spanSize: Int) {
        var window = SniffWindow()
        var offset = 0
        while !window.isFull {
            let end = min(offset + spanSize, Self.longPart.count)
            let taken = Self.longPart[offset..<end].withUnsafeBytes { window.append($0) }
            #expect(taken == min(end - offset, sniffWindowSize - (window.count - taken)))
            offset += taken
        }
        #expect(offset == sniffWindowSize)
        #expect(window.bytes == Array(Self.longPart.prefix(sniffWindowSize)))
        let result = window.sniff(complete: false)
        #expect(result == MIMESniffer.sniff(Self.longPart, complete: true))
        #expect(result.type == .png)
        #expect(result.isFinal)
    }

    @Test func partEndingBeforeTheWindowFills() {
        var window = SniffWindow()
        window.append(contentsOf: Fixture.ascii("#!/bin/"))
        let early = window.sniff(complete: false)
        #expect(early.type == .shellScript)
        #expect(!early.isFinal)
        window.append(contentsOf: Fixture.ascii("sh\necho ok\n"))
        #expect(!window.isFull)
        #expect(window.sniff(complete: true) == SniffResult(type: .shellScript, signature: "shebang", isFinal: true))
    }

    @Test func resetStartsTheNextPart() {
        var window = SniffWindow()
        window.append(contentsOf: Self.longPart)
        #expect(window.isFull)
        window.reset()
        #expect(window.isEmpty)
        #expect(window.remainingCapacity == sniffWindowSize)
        window.append(contentsOf: SignatureCase.peExecutable)
        #expect(window.sniff(complete: true).type == .windowsExecutable)
        #expect(window.bytes == SignatureCase.peExecutable)
    }

    @Test func emptySpansAreHarmless() {
        var window = SniffWindow()
        #expect(window.append(contentsOf: [UInt8]()) == 0)
        #expect([UInt8]().withUnsafeBytes { window.append($0) } == 0)
        #expect(window.sniff(complete: true).signature == "empty")
    }
}
