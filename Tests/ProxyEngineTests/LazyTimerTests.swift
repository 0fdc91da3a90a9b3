import CEventTLS
import Foundation
import LoopbackTestSupport
import Policy
import Testing

@testable import ProxyEngine

/// ``LazyTimer``: re-armed only for an earlier deadline, and the connection timeouts built on it, which count from
/// the last activity (a moved deadline never fires early, a reached one fires).
@Suite("Lazy timers", .serialized)
struct LazyTimerTests {
    /// Counts the firings of one lazy timer on a real base and stops the loop at the first.
    final class Owner {
        let base: OpaquePointer
        var timer: LazyTimer?
        var firings = 0

        init(base: OpaquePointer) {
            self.base = base
            timer = LazyTimer(base: base, context: Unmanaged.passUnretained(self).toOpaque()) { _, _, context in
                let owner = Unmanaged<Owner>.fromOpaque(context!).takeUnretainedValue()
                owner.timer!.fired()
                owner.firings += 1
                _ = event_base_loopbreak(owner.base)
            }
        }

        /// Runs the loop until the timer fires or 2 s pass; the seconds it took.
        func run() -> TimeInterval {
            let start = Date()
            var limit = timeval(tv_sec: 2, tv_usec: 0)
            _ = event_base_loopexit(base, &limit)
            _ = event_base_dispatch(base)
            return Date().timeIntervalSince(start)
        }
    }

    /// Runs `body` with an owner on a new base; both are freed after.
    static func withOwner(_ body: (Owner) throws -> Void) throws {
        let base = try #require(event_base_new())
        defer { event_base_free(base) }
        let owner = Owner(base: base)
        defer { owner.timer?.free() }
        try body(owner)
    }

    @Test func aLaterDeadlineLeavesTheEarlierFiring() throws {
        try Self.withOwner { owner in
            let now = CoarseClock.now()
            owner.timer!.fire(by: now + 50, now: now)
            owner.timer!.fire(by: now + 1500, now: now)  // no re-arm: the owner looks again at 50 ms
            let elapsed = owner.run()
            #expect(owner.firings == 1)
            #expect(elapsed >= 0.045 && elapsed < 1.0, "fired after \(elapsed) s")
        }
    }

    @Test func anEarlierDeadlineRearms() throws {
        try Self.withOwner { owner in
            let now = CoarseClock.now()
            owner.timer!.fire(by: now + 1500, now: now)
            owner.timer!.fire(by: now + 40, now: now)
            let elapsed = owner.run()
            #expect(owner.firings == 1)
            #expect(elapsed >= 0.035 && elapsed < 1.0, "fired after \(elapsed) s")
            // Fired: the next deadline arms it again, however late.
            let later = CoarseClock.now()
            owner.timer!.fire(by: later + 30, now: later)
            #expect(owner.run() < 1.0)
            #expect(owner.firings == 2)
        }
    }

    @Test func limitsCountWholeMillisecondsPlusOneClockTick() {
        #expect(LoopTimeout(.milliseconds(250)).milliseconds == 250 + LazyTimer.slack)
        #expect(LoopTimeout(.microseconds(1500)).milliseconds == 2 + LazyTimer.slack)
        #expect(LoopTimeout(.zero).milliseconds == LazyTimer.slack)
        #expect(LoopTimeout(.seconds(-3)).milliseconds == LazyTimer.slack)
        #expect(LoopTimeout(.seconds(Int64.max)).milliseconds == 315_360_000_000 + LazyTimer.slack)
    }

    /// A response that trickles (a byte every 150 ms for 1.5 s) outlives a 500 ms response timeout: each read
    /// moves the deadline. A stalled one is 504 (``ProxyUpstreamFaultTests/stalledUpstreamIs504()``).
    @Test func aTricklingResponseOutlivesTheResponseTimeout() throws {
        let upstream = try RawServer { fd in
            _ = RawServer.readHead(fd)  // GET, no body
            RawServer.send(fd, "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n")
            for _ in 0..<10 {
                Thread.sleep(forTimeInterval: 0.15)
                RawServer.send(fd, "x")
            }
        }
        defer { upstream.stop() }
        let log = ProxyUpstreamFaultTests.Log()
        let (proxy, port) = try ProxyUpstreamFaultTests.proxy(to: upstream.port, log: log, timeouts: .milliseconds(500))
        defer { proxy.stop(); proxy.wait() }
        let client = try TestHTTPClient(port: port, timeout: 5)
        client.send("GET /slow HTTP/1.1\r\nHost: a\r\n\r\n")
        let response = client.readResponse(method: "GET")
        #expect(response?.status == 200)
        #expect(response?.body == Array("xxxxxxxxxx".utf8), "\(log.all)")
    }

    /// A keep-alive client sending a request every 150 ms keeps its connection past a 400 ms idle timeout (each
    /// response moves the deadline), then is closed once it stops.
    @Test func aBusyKeepAliveClientOutlivesTheIdleTimeout() throws {
        let harness = try ProxyHarness { $0.idleTimeout = .milliseconds(400) }
        defer { harness.shutdown() }
        let client = try TestHTTPClient(port: harness.port, timeout: 5)
        let started = Date()
        var answered = 0
        while Date().timeIntervalSince(started) < 1.5 {
            client.send("GET /ping HTTP/1.1\r\nHost: a\r\n\r\n")
            if client.readResponse(method: "GET")?.status == 200 { answered += 1 }
            Thread.sleep(forTimeInterval: 0.15)
        }
        #expect(answered >= 5)
        let idleStart = Date()
        #expect(client.isClosedByPeer())
        let idle = Date().timeIntervalSince(idleStart)
        #expect(idle >= 0.2 && idle < 2, "closed after \(idle) s idle")
    }
}
