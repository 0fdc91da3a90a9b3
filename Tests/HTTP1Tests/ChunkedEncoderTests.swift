import Testing

@testable import HTTP1

@Suite struct ChunkedEncoderTests {
    @Test(arguments: [
        (1, "1\r\n"), (9, "9\r\n"), (10, "a\r\n"), (15, "f\r\n"), (16, "10\r\n"), (255, "ff\r\n"), (4096, "1000\r\n"),
        (65535, "ffff\r\n"), (Int(Int32.max), "7fffffff\r\n"), (Int.max, "7fffffffffffffff\r\n"),
    ])
    func sizeLineIsLowercaseHexWithoutLeadingZeros(count: Int, line: String) {
        let sizeLine = ChunkedEncoder.sizeLine(for: count)
        #expect(sizeLine.bytes == Array(line.utf8))
        #expect(sizeLine.count == line.utf8.count)
        var buffer: [UInt8] = [0x41]
        ChunkedEncoder.appendSizeLine(for: count, to: &buffer)
        #expect(buffer == [0x41] + Array(line.utf8))
    }

    @Test func terminators() {
        #expect(ChunkedEncoder.dataTerminator == Array("\r\n".utf8))
        #expect(ChunkedEncoder.lastChunk == Array("0\r\n\r\n".utf8))
    }

    @Test func appendChunkSkipsEmptyData() {
        var buffer: [UInt8] = []
        ChunkedEncoder.appendChunk([UInt8](), to: &buffer)
        #expect(buffer.isEmpty)
        ChunkedEncoder.appendChunk(Array("hello".utf8), to: &buffer)
        #expect(buffer == Array("5\r\nhello\r\n".utf8))
    }

    @Test func sizeLinesWithTheSameBytesAreEqual() {
        #expect(ChunkedEncoder.sizeLine(for: 300) == ChunkSizeLine(size: 300))
        #expect(ChunkedEncoder.sizeLine(for: 300) != ChunkSizeLine(size: 301))
        #expect(Set([ChunkSizeLine(size: 7), ChunkSizeLine(size: 7)]).count == 1)
    }

    /// Encodes random data in random chunk sizes, decodes it fed in random spans, and compares.
    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8])
    func randomRoundTrip(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let length = Int(random.next() % 20_000)
        let data = (0..<length).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        var encoded: [UInt8] = []
        var index = 0
        while index < data.count {
            let size = min(data.count - index, 1 + Int(random.next() % 700))
            ChunkedEncoder.appendChunk(data[index..<(index + size)], to: &encoded)
            index += size
        }
        encoded += ChunkedEncoder.lastChunk
        var spans: [[UInt8]] = []
        index = 0
        while index < encoded.count {
            let size = min(encoded.count - index, 1 + Int(random.next() % 300))
            spans.append(Array(encoded[index..<(index + size)]))
            index += size
        }
        var decoder = ChunkedDecoder()
        var decoded: [UInt8] = []
        var ended = false
        for span in spans {
            var offset = 0
            while !ended {
                let action = span.withUnsafeBytes { decoder.decode(UnsafeRawBufferPointer(rebasing: $0[offset...])) }
                if case .data(let range) = action {
                    decoded += span[(offset + range.lowerBound)..<(offset + range.upperBound)]
                    offset += range.upperBound
                } else if case .end(let consumed) = action {
                    #expect(offset + consumed == span.count)
                    ended = true
                } else {
                    #expect(action == .needMore)
                    break
                }
            }
        }
        #expect(ended)
        #expect(decoded == data)
    }
}
