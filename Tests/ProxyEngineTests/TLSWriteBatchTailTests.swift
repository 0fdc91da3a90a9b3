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
    final class Driver: UpstreamDelegate {
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
            let context = Unmanaged.passUnretained(self).toOpaque()
            tick = event_new(loop.base, -1, Int16(EV_PERSIST), { _, _, context in
                Unmanaged<Driver>.fromOpaque(context!).takeUnretainedValue().ticked()
            }, context)
            var interval = timeval(tv_sec: 0, tv_usec: 1000)
            _ = event_add(tick, &interval)
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
            if let tick { event_free(tick) }
            tick = nil
            let closing = upstream
            upstream = nil
            closing?.close()
            _ = event_base_loopbreak(loop.base)
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
        let settings = UpstreamSettings(
            name: "up", address: SocketAddress("127.0.0.1:\(upstream.port)")!, serverName: "localhost",
            tls: try TLSFixture.shared.clientContext(), connectTimeout: .seconds(30), responseTimeout: .seconds(30))
        let driver = Driver(loop: loop, completes: completes, arrived: arrival)
        let connection = try #require(UpstreamConnection(loop: loop, settings: settings, buffers: BufferSettings()))
        connection.delegate = driver
        driver.upstream = connection
        var limit = timeval(tv_sec: 10, tv_usec: 0)
        _ = event_base_loopexit(loop.base, &limit)
        loop.run()
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
