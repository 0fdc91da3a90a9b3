import CEventTLS
import Foundation
import LoopbackTestSupport
import Testing

@testable import ProxyEngine

/// The one case the proxy-level tests cannot aim at: a flush the socket refuses when the output is already empty,
/// so no write of the bufferevent's own follows and only the connection's retry (a write event of its own) can
/// deliver the batched bytes. Driven on a real loop against a TLS peer that stops reading.
@Suite("TLS write batch: a refused last flush", .serialized)
struct TLSWriteBatchRetryTests {
    /// Writes pieces to one upstream connection, one per tick of a 1 ms timer, until a flush was refused with
    /// nothing left in the output; then lets the peer read and waits for it to have every byte.
    final class Driver: UpstreamDelegate, TickingDriver {
        let loop: EventLoop
        let peer: PeerGate
        /// Instead of letting the peer read: stop reading the connection and have the peer reset it, so only the
        /// retried flush can notice.
        let resetsPeer: Bool
        var closedReason: String?
        /// When the peer was told to reset, and when the connection reported its close.
        var resetAt: Date?
        var closedAt: Date?
        var upstream: UpstreamConnection?
        var tick: OpaquePointer?
        var sent = 0
        var checksum: UInt64 = 0
        var batched = false
        var refusedWithEmptyOutput = false
        var failure: String?

        init(loop: EventLoop, peer: PeerGate, resetsPeer: Bool = false) {
            self.loop = loop
            self.peer = peer
            self.resetsPeer = resetsPeer
        }

        func send(_ count: Int) {
            let piece = (sent..<sent + count).map(TLSWriteBatchRetryTests.byte)
            for byte in piece { checksum = checksum &* 33 &+ UInt64(byte) }
            sent += count
            upstream?.write(piece)
        }

        func upstreamConnected(_ upstream: UpstreamConnection) {
            send(256 * 1024)  // read at once by the peer: a large drain, which starts batching
            tick = startTicking(self, on: loop)
        }

        func ticked() {
            guard let upstream else { return }
            if upstream.batch.isOn, !batched {
                // From here each drain writes all it made, as at the end of a request: bytes left in the batch are
                // then ones the socket refused, not a tail held for the next drain (TLSWriteBatchTailTests).
                upstream.requestWritten()
            }
            batched = batched || upstream.batch.isOn
            if refusedWithEmptyOutput {
                if peer.received >= sent { stop() }
                return
            }
            guard evbuffer_get_length(upstream.output) == 0 else { return }  // the bufferevent still writes
            if upstream.batch.pending > 0 {
                // Refused with an empty output: from now on only the retry can write.
                refusedWithEmptyOutput = true
                if resetsPeer {
                    upstream.setReading(false)
                    resetAt = Date()
                    peer.reset()
                } else {
                    peer.open(expecting: sent, checksum: checksum)
                }
                return
            }
            guard sent < 64 << 20 else { return fail("the socket never filled") }
            send(16 * 1024)
        }

        func fail(_ reason: String) {
            failure = reason
            stop()
        }

        func stop() {
            stopDriving(tick: &tick, upstream: &upstream, loop: loop)
        }

        func upstreamReadable(_ upstream: UpstreamConnection) {}
        func upstreamDrained(_ upstream: UpstreamConnection) {}
        func upstreamClosed(_ upstream: UpstreamConnection, reason: String?, timedOut: Bool) {
            guard self.upstream != nil else { return }
            if resetsPeer && refusedWithEmptyOutput {
                closedReason = reason ?? "-"
                closedAt = Date()
                return stop()
            }
            // The peer closes once it has every byte, which may come before the next tick.
            if refusedWithEmptyOutput && peer.received >= sent { return stop() }
            fail("closed: \(reason ?? "-")")
        }
    }

    /// The peer's side: it reads the first 256 KiB, then nothing until ``open(expecting:checksum:)``; then it reads
    /// the rest and checks it.
    final class PeerGate: @unchecked Sendable {
        // @unchecked Sendable: every field is touched only while holding `condition`.
        private let condition = NSCondition()
        private var expected: (count: Int, checksum: UInt64)?
        private var resets = false
        private var count = 0
        private var sum: UInt64 = 0

        var received: Int { condition.withLock { count } }
        var matches: Bool { condition.withLock { expected.map { $0 == (count, sum) } ?? false } }

        func open(expecting count: Int, checksum: UInt64) {
            condition.withLock {
                expected = (count, checksum)
                condition.broadcast()
            }
        }

        func reset() {
            condition.withLock {
                resets = true
                condition.broadcast()
            }
        }

        func serve(_ peer: FaultPeer) {
            var buffer = [UInt8](repeating: 0, count: 64 * 1024)
            while true {
                let limit = condition.withLock { () -> Int in
                    while expected == nil && !resets && count >= 256 * 1024 {
                        guard condition.wait(until: Date() + 30) else { return 0 }  // past any drive: the driver decides
                    }
                    return resets ? -1 : expected.map { $0.count - count } ?? 256 * 1024 - count
                }
                if limit < 0 { return peer.reset() }
                guard limit > 0 else { return }
                let got = peer.read(into: &buffer, count: min(buffer.count, limit))
                guard got > 0 else { return }
                condition.withLock {
                    for byte in buffer.prefix(got) { sum = sum &* 33 &+ UInt64(byte) }
                    count += got
                }
            }
        }
    }

    static func byte(_ index: Int) -> UInt8 { UInt8(truncatingIfNeeded: index &* 31 &+ index >> 16) }

    /// Runs a ``Driver`` against a TLS peer behind a ``PeerGate`` until the driver stops or `seconds` pass.
    static func drive(resettingPeer: Bool, seconds: Int) throws -> (Driver, PeerGate) {
        let gate = PeerGate()
        let upstream = try FaultUpstream(tls: true) { gate.serve($0) }
        defer { upstream.stop() }
        let loop = EventLoop()
        let driver = Driver(loop: loop, peer: gate, resetsPeer: resettingPeer)
        let connection = try #require(try tlsUpstreamConnection(port: upstream.port, loop: loop, delegate: driver))
        driver.upstream = connection
        runLoop(loop, seconds: seconds)
        return (driver, gate)
    }

    @Test func bytesLeftByARefusedFlushWithAnEmptyOutputArrive() throws {
        let (driver, gate) = try Self.drive(resettingPeer: false, seconds: 20)
        #expect(driver.failure == nil, "\(driver.failure ?? "")")
        #expect(driver.batched, "batching never started")
        #expect(driver.refusedWithEmptyOutput, "no flush was refused with an empty output")
        #expect(gate.received == driver.sent, "the peer got \(gate.received) of \(driver.sent) bytes")
        #expect(gate.matches, "the bytes arrived changed")
    }

    /// The peer resets the connection while batched bytes wait and nothing else watches the socket (the output is
    /// empty and reading is off): the retried flush fails and reports it, rather than retrying for ever.
    /// Timed from the reset, not from the start: filling the socket takes longer on a busy machine, the retry's
    /// noticing (1 ms retries) does not.
    @Test func aResetWhileBytesWaitClosesTheConnection() throws {
        let (driver, _) = try Self.drive(resettingPeer: true, seconds: 30)
        #expect(driver.failure == nil, "\(driver.failure ?? "")")
        #expect(driver.refusedWithEmptyOutput, "no flush was refused with an empty output")
        #expect(driver.closedReason?.hasPrefix("connection error") == true, "closed: \(driver.closedReason ?? "no")")
        let noticed = try #require(driver.closedAt, "the reset went unnoticed").timeIntervalSince(
            try #require(driver.resetAt))
        #expect(noticed < 5, "the reset was noticed after \(noticed) s")
    }
}
