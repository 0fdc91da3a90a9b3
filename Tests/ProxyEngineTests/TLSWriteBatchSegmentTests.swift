import CEventTLS
import Foundation
import LoopbackTestSupport
import Testing

@testable import ProxyEngine

/// A batch holds whole TCP segments (``TLSWriteBatch/size(mss:)``): each full write of a large body then leaves no
/// short segment behind it. With a 64 KiB buffer every write on loopback (MSS 65,483) went out as two segments.
@Suite("TLS write batch: whole segments", .serialized)
struct TLSWriteBatchSegmentTests {
    @Test(arguments: [
        (65_483, 65_483), (1_448, 65_160), (1_460, 64_240), (536, 65_392), (9_000, 63_000), (65_536, 65_536),
        (0, 65_536), (535, 65_536), (70_000, 65_536),
    ])
    func theBufferIsTheLargestMultipleOfTheSegmentThatFits(mss: Int, size: Int) {
        #expect(TLSWriteBatch.size(mss: mss) == size)
    }

    /// Writes `total` bytes to one TLS upstream connection, a megabyte each time its output is empty.
    final class Driver: UpstreamDelegate {
        static let piece = 1 << 20
        let loop: EventLoop
        let total: Int
        var upstream: UpstreamConnection?
        var sent = 0
        /// The batch's size and the socket's MSS it was made for, seen while batching.
        var capacity = 0
        var mss = 0
        var failure: String?

        init(loop: EventLoop, total: Int) {
            self.loop = loop
            self.total = total
        }

        func sendNext() {
            guard let upstream, sent < total else { return }
            upstream.write([UInt8](repeating: UInt8(truncatingIfNeeded: sent >> 20), count: Self.piece))
            sent += Self.piece
        }

        func upstreamConnected(_ upstream: UpstreamConnection) { sendNext() }

        func upstreamDrained(_ upstream: UpstreamConnection) {
            if upstream.batch.isOn, capacity == 0 {
                capacity = upstream.batch.capacity
                mss = upstream.batch.segment
            }
            guard sent < total else {
                // Everything is in the socket or the batch; the connection stays open until the peer has it all.
                return
            }
            sendNext()
        }

        func upstreamReadable(_ upstream: UpstreamConnection) {}

        /// The peer closes once it has read everything.
        func upstreamClosed(_ upstream: UpstreamConnection, reason: String?, timedOut: Bool) {
            if timedOut { failure = "timed out" }
            self.upstream = nil
            _ = event_base_loopbreak(loop.base)
        }
    }

    /// What the peer saw: bytes and data segments, set once it has read everything.
    final class PeerCount: @unchecked Sendable {
        // @unchecked Sendable: both fields are touched only while holding `lock`.
        private let lock = NSLock()
        private var result: (bytes: Int, segments: Int?)?
        var value: (bytes: Int, segments: Int?)? { lock.withLock { result } }
        func set(_ bytes: Int, _ segments: Int?) { lock.withLock { result = (bytes, segments) } }
    }

    @Test func fullWritesOfALargeBodyFillWholeSegments() throws {
        let total = 16 << 20
        let count = PeerCount()
        let upstream = try FaultUpstream(tls: true) { peer in
            let bytes = peer.read(atLeast: total)
            count.set(bytes, peer.dataSegmentsReceived())
        }
        defer { upstream.stop() }
        let loop = EventLoop()
        let driver = Driver(loop: loop, total: total)
        let connection = try #require(try tlsUpstreamConnection(port: upstream.port, loop: loop, delegate: driver))
        driver.upstream = connection
        // Runs until the peer has read everything (it then closes, which ends the loop) or 20 s pass.
        runLoop(loop, seconds: 20)
        driver.upstream?.close()
        #expect(driver.failure == nil, "\(driver.failure ?? "")")
        // The socket's MSS was read (loopback's is tens of kilobytes) and the buffer made for it.
        #expect(driver.mss >= 536, "MSS \(driver.mss)")
        #expect(driver.capacity == TLSWriteBatch.size(mss: driver.mss), "batch \(driver.capacity)")
        let seen = try #require(count.value, "the peer did not read the body")
        #expect(seen.bytes >= total)
        let segments = try #require(seen.segments)
        // The records on the wire (16 KiB of body and 22 bytes of TLS each) fill `whole` segments; a few carry the
        // handshake, and a write the full socket takes only part of leaves a short one (307–347 in all here, with
        // or without a flush after each drain). 64 KiB writes on loopback went out as 2 segments each: 512 and more.
        let wire = seen.bytes + seen.bytes / 16_384 * 22
        let whole = (wire + driver.capacity - 1) / max(driver.capacity, 1)
        #expect(
            segments <= whole + seen.bytes / (128 * 1024) + 16,
            "\(segments) segments for \(seen.bytes) bytes, batch \(driver.capacity), MSS \(driver.mss)")
    }
}
