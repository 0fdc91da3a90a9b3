import CEventTLS
import Testing

@testable import ProxyEngine

/// The TLS upstream writer: bytes arrive intact and in order, in large chains, or, under a rate limit, in
/// chains no larger than the limit rounds up to (libevent's OpenSSL bufferevent writes whole chains).
@Suite struct CoalescingOutputTests {
    /// The output's chain sizes, front to back.
    private func chainSizes(_ buffer: OpaquePointer) -> [Int] {
        let count = Int(evbuffer_peek(buffer, -1, nil, nil, 0))
        var vectors = [iovec](repeating: iovec(), count: count)
        _ = evbuffer_peek(buffer, -1, nil, &vectors, Int32(count))
        return vectors.map(\.iov_len)
    }

    private func contents(_ buffer: OpaquePointer) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: EvBuffer.length(buffer))
        _ = evbuffer_copyout(buffer, &bytes, bytes.count)
        return bytes
    }

    @Test(arguments: [Int.max, 25_600, 1_000])
    func piecesArriveIntactInBoundedChains(limit: Int) throws {
        let buffer = try #require(evbuffer_new())
        defer { evbuffer_free(buffer) }
        var writer = CoalescingOutput()
        var expected: [UInt8] = []
        var seed: UInt32 = 7
        for size in [5, 300, 70_000, 1, 200_000, 4_096, 33] {
            let piece = (0..<size).map { _ -> UInt8 in
                seed = seed &* 1_664_525 &+ 1_013_904_223
                return UInt8(truncatingIfNeeded: seed >> 24)
            }
            piece.withUnsafeBytes { writer.add(buffer, $0, chainLimit: limit) }
            expected += piece
        }
        #expect(contents(buffer) == expected)
        let sizes = chainSizes(buffer)
        if limit == .max {
            // Small pieces share 64 KiB chains; large ones fill the last chain, then one of their own.
            #expect(sizes.count <= 6, "\(sizes)")
        } else {
            // libevent may move up to 4 KiB of the last chain into a new one and rounds a chain's size up to a
            // power of two: no chain holds more than that.
            var bound = 1
            while bound < limit + 4_096 { bound <<= 1 }
            #expect(sizes.allSatisfy { $0 <= bound }, "\(sizes)")
        }
    }
}
