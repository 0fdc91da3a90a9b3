import CEventTLS
import Foundation
import Testing

@testable import ProxyEngine

/// OpenSSL's `SSL_get_error` reads the thread's error queue: an entry left there by anything else on the loop thread
/// (a certificate load, another connection) would make a TLS upstream's orderly end read as a failure. The upstream
/// socket clears the queue before each `SSL_read`, `SSL_write` and handshake step when it holds something
/// (``UpstreamSocket``). Driven on a real loop against a TLS peer that answers and then closes with close_notify.
@Suite("Upstream socket: a stale OpenSSL error", .serialized)
struct UpstreamSocketErrorQueueTests {
    /// Leaves entries on this thread's error queue, as a failed file open through OpenSSL does.
    static func leaveStaleError() {
        _ = BIO_new_file("/nonexistent/partgate-stale-error", "r")
    }

    final class Driver: UpstreamDelegate {
        let loop: EventLoop
        var upstream: UpstreamConnection?
        var received: [UInt8] = []
        var closed = false
        var closedReason: String?
        /// Whether the `SSL` accepts a write retried from moved bytes (`SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER`).
        var acceptsMovingWrites = false

        init(loop: EventLoop) { self.loop = loop }

        func upstreamConnected(_ upstream: UpstreamConnection) {
            if let ssl = upstream.socket?.ssl {
                acceptsMovingWrites = SSL_ctrl(ssl, SSL_CTRL_MODE, 0, nil) & Int(SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER) != 0
            }
            UpstreamSocketErrorQueueTests.leaveStaleError()
            upstream.write(Array("ping".utf8))
        }

        func upstreamReadable(_ upstream: UpstreamConnection) {
            let count = EvBuffer.length(upstream.input)
            received += [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
                initialized = Int(evbuffer_remove(upstream.input, buffer.baseAddress, count))
            }
            // The next read pass meets the peer's close_notify: SSL_read returns 0 and SSL_get_error decides.
            UpstreamSocketErrorQueueTests.leaveStaleError()
        }

        func upstreamDrained(_ upstream: UpstreamConnection) {}

        func upstreamClosed(_ upstream: UpstreamConnection, reason: String?, timedOut: Bool) {
            closed = true
            closedReason = reason ?? (timedOut ? "timed out" : nil)
            self.upstream = nil
            _ = event_base_loopbreak(loop.base)
        }
    }

    @Test func anOrderlyCloseReadsAsTheEndWhateverTheQueueHeld() throws {
        let upstream = try FaultUpstream(tls: true) { peer in
            guard peer.read(atLeast: 4) >= 4 else { return }
            _ = peer.send("pong")
            Thread.sleep(forTimeInterval: 0.05)  // the answer's read pass first, then the close in a pass of its own
            peer.close()
        }
        defer { upstream.stop() }
        let loop = EventLoop()
        let driver = Driver(loop: loop)
        let connection = try #require(try tlsUpstreamConnection(port: upstream.port, loop: loop, delegate: driver))
        driver.upstream = connection
        runLoop(loop, seconds: 10)
        if let open = driver.upstream {
            driver.upstream = nil
            open.close()
        }
        ERR_clear_error()
        #expect(String(decoding: driver.received, as: UTF8.self) == "pong")
        #expect(driver.closed, "the connection never ended")
        #expect(driver.closedReason == nil, "ended as a failure: \(driver.closedReason ?? "")")
        // The output's first chain may move between a write that waited and its retry (see UpstreamSocket).
        #expect(driver.acceptsMovingWrites)
    }
}
