import CEventTLS
import Foundation
import Testing

@testable import ProxyEngine

/// While a body is still coming, a drain leaves the batch's partial tail for the next drain to fill
/// (``UpstreamConnection/requestWritten()``, ``TLSWriteBatch/tailDelay``): the tail must still arrive when no drain
/// follows, and at once when the request is complete.
@Suite("TLS write batch: the tail of a drain", .serialized)
struct TLSWriteBatchTailTests {
    static let first = 256 * 1024  // read at once by the peer: a large drain, which starts batching
    static let tail = 10_000  // less than a batch: it stays in the buffer

    /// Writes ``first`` bytes, then ``tail`` more once the output is empty, then either waits or completes the
    /// request; stops once the peer has every byte.
    final class Driver: UpstreamDelegate, TickingDriver {
        let loop: EventLoop
        let completes: Bool
        let arrived: Arrival
        var upstream: UpstreamConnection?
        var step = 0
        /// Bytes the batch held once the tail's drain was over, and after ``UpstreamConnection/requestWritten()``.
        var held = -1
        var heldAfterCompletion = -1
        var tailWritten: Date?
        var tick: OpaquePointer?
        var failure: String?

        init(loop: EventLoop, completes: Bool, arrived: Arrival) {
            self.loop = loop
            self.completes = completes
            self.arrived = arrived
        }

        func upstreamConnected(_ upstream: UpstreamConnection) {
            upstream.write([UInt8](repeating: 1, count: TLSWriteBatchTailTests.first))
            tick = startTicking(self, on: loop)
        }

        func upstreamDrained(_ upstream: UpstreamConnection) {
            step += 1
            if step == 1 {
                guard upstream.batch.isOn else { return stop("the first drain did not start batching") }
                tailWritten = Date()
                upstream.write([UInt8](repeating: 2, count: TLSWriteBatchTailTests.tail))
            } else if step == 2 {
                held = upstream.batch.pending
                if completes {
                    upstream.requestWritten()
                    heldAfterCompletion = upstream.batch.pending
                }
            }
        }

        func ticked() {
            if arrived.time != nil { stop(nil) }
        }

        func stop(_ reason: String?) {
            failure = failure ?? reason
            stopDriving(tick: &tick, upstream: &upstream, loop: loop)
        }

        func upstreamReadable(_ upstream: UpstreamConnection) {}
        func upstreamClosed(_ upstream: UpstreamConnection, reason: String?, timedOut: Bool) {
            guard self.upstream != nil else { return }
            // The peer closes once it has every byte, which may come before the next tick.
            stop(arrived.time == nil ? "closed: \(reason ?? "-")" : nil)
        }
    }

    /// When the peer had every byte.
    final class Arrival: @unchecked Sendable {
        // @unchecked Sendable: the field is touched only while holding `lock`.
        private let lock = NSLock()
        private var value: Date?
        var time: Date? { lock.withLock { value } }
        func set() { lock.withLock { value = Date() } }
    }

    static func drive(completes: Bool) throws -> (Driver, Arrival) {
        let arrival = Arrival()
        let upstream = try FaultUpstream(tls: true) { peer in
            if peer.read(atLeast: first + tail) >= first + tail { arrival.set() }
        }
        defer { upstream.stop() }
        let loop = EventLoop()
        let driver = Driver(loop: loop, completes: completes, arrived: arrival)
        let connection = try #require(try tlsUpstreamConnection(port: upstream.port, loop: loop, delegate: driver))
        driver.upstream = connection
        runLoop(loop, seconds: 10)
        driver.stop(nil)
        return (driver, arrival)
    }

    /// No drain follows the tail's: the timer writes it.
    @Test func aHeldTailArrivesWhenNoDrainFollows() throws {
        let (driver, arrival) = try Self.drive(completes: false)
        #expect(driver.failure == nil, "\(driver.failure ?? "")")
        // The tail's records (10,000 bytes and a record header) stayed in the batch after their drain.
        #expect(driver.held > Self.tail, "the batch held \(driver.held) bytes after the tail's drain")
        let arrived = try #require(arrival.time, "the tail never arrived")
        let wait = arrived.timeIntervalSince(try #require(driver.tailWritten))
        #expect(wait < 1, "the tail took \(wait) s")
    }

    /// The request is complete: what the batch held goes at once.
    @Test func theTailGoesAtOnceWhenTheRequestIsComplete() throws {
        let (driver, arrival) = try Self.drive(completes: true)
        #expect(driver.failure == nil, "\(driver.failure ?? "")")
        #expect(driver.held > Self.tail, "the batch held \(driver.held) bytes after the tail's drain")
        #expect(driver.heldAfterCompletion == 0, "the batch held \(driver.heldAfterCompletion) bytes after completion")
        #expect(arrival.time != nil, "the tail never arrived")
    }
}
