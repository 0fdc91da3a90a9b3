import CEventTLS  // owns <sys/socket.h>'s enums (SOCK_STREAM, SHUT_WR) when its module loads first
import Foundation
import LoopbackTestSupport
import ProxyEngine
import Testing

/// Every upstream fault through the real engine, plain and TLS upstreams, streamed and spooled bodies: the
/// client gets the right status (or, once a response started, a closed connection), the engine logs the
/// event, and afterwards the proxy holds no socket, bufferevent, `SSL` object or spool file of the request.
@Suite("Upstream faults release everything", .serialized)
struct ProxyUpstreamFaultLeakTests {
    /// Sends the whole upload from a thread of its own (the proxy may stop reading once it answered) and
    /// returns the response read meanwhile on the calling thread.
    static func upload(
        to proxy: FaultProxy, request: [UInt8] = FaultProxy.upload
    ) throws -> (TestHTTPClient, TestHTTPClient.Response?) {
        let client = try TestHTTPClient(port: proxy.port, timeout: 15)
        // The thread holds the client, so its descriptor stays open (and its number ours) until the last send.
        nonisolated(unsafe) let owner = client
        let sender = Thread {
            var offset = 0
            while offset < request.count {
                let sent = request[offset...].withUnsafeBytes {
                    send(owner.descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
                }
                if sent <= 0 { return }
                offset += sent
            }
        }
        sender.start()
        return (client, client.readResponse())
    }

    @Test(arguments: FaultVariant.all)
    func refusedConnectionIs502(_ variant: FaultVariant) throws {
        let refusing = RefusingPort()  // bound, never listening: connections are refused
        defer { withExtendedLifetime(refusing) {} }
        let upstreamPort = refusing.port
        let proxy = try FaultProxy(upstreamPort: upstreamPort, variant: variant)
        defer { proxy.shutdown() }
        let (client, response) = try Self.upload(to: proxy)
        #expect(response?.status == 502)
        #expect(response?.json?["flag"] as? String == "upstream_failed")
        let text = response?.text ?? ""
        #expect(!text.contains("refused"))
        #expect(proxy.log.wait(for: "log: upstream up: connect failed") != nil, "\(proxy.log.all)")
        #expect(proxy.log.wait(for: "problem: 502 upstream_failed") != nil)
        #expect(client.isClosedByPeer())
        proxy.expectReleased()
    }

    /// The TCP connection never completes (the upstream's accept queue is full): 504 after the connect timeout.
    @Test(arguments: FaultVariant.all)
    func connectTimeoutIs504(_ variant: FaultVariant) throws {
        let unreachable = try FullBacklogListener()
        let proxy = try FaultProxy(upstreamPort: unreachable.port, variant: variant, connectTimeout: .milliseconds(400))
        defer { proxy.shutdown() }
        let started = Date()
        let (client, response) = try Self.upload(to: proxy)
        #expect(response?.status == 504)
        #expect(response?.json?["flag"] as? String == "upstream_timeout")
        #expect(Date().timeIntervalSince(started) < 5)
        #expect(proxy.log.wait(for: "log: upstream up: connect timed out") != nil, "\(proxy.log.all)")
        #expect(client.isClosedByPeer())
        proxy.expectReleased()
        withExtendedLifetime(unreachable) {}
    }

    /// The TCP connection completes but the upstream never answers the TLS handshake: also the connect timeout.
    @Test(arguments: FaultVariant.all.filter(\.tls))
    func stalledTLSHandshakeIs504(_ variant: FaultVariant) throws {
        let silent = try FaultUpstream(tls: true, handshake: false) { _ in }
        defer { silent.stop() }
        let proxy = try FaultProxy(upstreamPort: silent.port, variant: variant, connectTimeout: .milliseconds(400))
        defer { proxy.shutdown() }
        let (_, response) = try Self.upload(to: proxy)
        #expect(response?.status == 504)
        #expect(proxy.log.wait(for: "log: upstream up: connect timed out") != nil, "\(proxy.log.all)")
        proxy.expectReleased()
        #expect(silent.waitForHandlers())
    }

    /// The upstream reads the whole request and never answers: 504 after the response timeout.
    @Test(arguments: FaultVariant.all)
    func responseTimeoutIs504(_ variant: FaultVariant) throws {
        let stall = try FaultUpstream(tls: variant.tls) { peer in
            _ = peer.readHead()
            peer.drain()
        }
        defer { stall.stop() }
        let proxy = try FaultProxy(upstreamPort: stall.port, variant: variant, responseTimeout: .milliseconds(500))
        defer { proxy.shutdown() }
        let (client, response) = try Self.upload(to: proxy)
        #expect(response?.status == 504)
        #expect(response?.json?["flag"] as? String == "upstream_timeout")
        #expect(proxy.log.wait(for: "log: upstream up: timed out") != nil, "\(proxy.log.all)")
        #expect(client.isClosedByPeer())
        proxy.expectReleased()
        #expect(stall.waitForHandlers())
    }

    /// The upstream reads the request, then sends its response head a byte every 100 ms: each byte is within
    /// the response timeout of the last, but the head as a whole is not, so it is cut at the timeout (nginx's
    /// `proxy_read_timeout` would wait for ever).
    @Test(arguments: FaultVariant.all.filter { $0.forward == .stream })
    func trickledResponseHeadIs504(_ variant: FaultVariant) throws {
        let trickle = try FaultUpstream(tls: variant.tls) { peer in
            _ = peer.readHead()
            peer.drainBody(ofLength: FaultProxy.body.count, chunked: true)
            for byte in "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nX-Slow: \(String(repeating: "s", count: 40))\r\n\r\nok".utf8 {
                guard peer.send([byte]) else { return }
                Thread.sleep(forTimeInterval: 0.1)
            }
        }
        defer { trickle.stop() }
        let proxy = try FaultProxy(upstreamPort: trickle.port, variant: variant, responseTimeout: .milliseconds(600))
        defer { proxy.shutdown() }
        let started = Date()
        let (client, response) = try Self.upload(to: proxy)
        #expect(response?.status == 504)
        #expect(response?.json?["flag"] as? String == "upstream_timeout")
        #expect(Date().timeIntervalSince(started) < 4, "the head would take 6.5 s")
        #expect(client.isClosedByPeer())
        proxy.expectReleased()
        #expect(trickle.waitForHandlers())
    }

    /// The upstream reads the head and 64 KiB of the body, then resets the connection.
    @Test(arguments: FaultVariant.all)
    func resetMidBodyIs502(_ variant: FaultVariant) throws {
        let reset = try FaultUpstream(tls: variant.tls) { peer in
            _ = peer.readHead()
            peer.read(atLeast: 64 * 1024)
            peer.reset()
        }
        defer { reset.stop() }
        let proxy = try FaultProxy(upstreamPort: reset.port, variant: variant)
        defer { proxy.shutdown() }
        let (client, response) = try Self.upload(to: proxy)
        #expect(response?.status == 502)
        #expect(response?.json?["flag"] as? String == "upstream_failed")
        #expect(proxy.log.wait(for: "log: upstream up") != nil, "\(proxy.log.all)")
        #expect(client.isClosedByPeer())
        proxy.expectReleased()
    }

    /// DESIGN.md "early upstream answers": the upstream answers 401 or 413 after the head, before the body
    /// ended; the answer is relayed, the body is no longer forwarded, the upstream connection is not reused
    /// and the client connection closes after the answer.
    /// 32 MiB: more than the loopback socket buffers on both sides and the proxy's watermarks hold, so the
    /// body cannot all be on its way (or queued) when the upstream answers.
    static let earlyUpload = SpoolRequests.upload(SpoolRequests.form(fileBytes: 32 << 20))

    /// How the upstream goes on after its early answer: reading the rest of the body, or closing at once (a
    /// backend that refuses an upload and hangs up; the kernel then resets the connection, since the body was
    /// unread, and the proxy's writes fail: the answer that came before the reset must still reach the client).
    ///
    /// `readsOn` reads nothing more until the client has the answer: the body then cannot have all been sent
    /// when the answer came, however the threads are scheduled. (An upstream that read on at once could take in
    /// the whole body before the proxy's loop turned to the answer; the request was then sent in full and the
    /// answer was not early. In CI that happened in 1 case of 749.)
    enum AfterEarlyAnswer: String, CaseIterable, Sendable {
        case readsOn, closes
    }

    @Test(arguments: FaultVariant.all, [401, 413].flatMap { status in AfterEarlyAnswer.allCases.map { (status, $0) } })
    func earlyAnswerIsRelayedThenTheConnectionCloses(_ variant: FaultVariant, answer: (Int, AfterEarlyAnswer)) throws {
        let (status, after) = answer
        let answered = DispatchSemaphore(value: 0)
        defer { answered.signal() }
        let early = try FaultUpstream(tls: variant.tls) { peer in
            _ = peer.readHead()
            switch after {
            case .readsOn:
                peer.send("HTTP/1.1 \(status) Early\r\nContent-Length: 5\r\n\r\nnope!")
                _ = answered.wait(timeout: .now() + 15)
                peer.drain()
            case .closes:
                peer.send("HTTP/1.1 \(status) Early\r\nContent-Length: 5\r\nConnection: close\r\n\r\nnope!")
                peer.closeAbruptly()
            }
        }
        defer { early.stop() }
        let proxy = try FaultProxy(upstreamPort: early.port, variant: variant)
        defer { proxy.shutdown() }
        let (client, response) = try Self.upload(to: proxy, request: Self.earlyUpload)
        answered.signal()
        #expect(response?.status == status, "\(proxy.log.all)")
        #expect(response?.text == "nope!")
        #expect(response?.header("connection") == "close")
        #expect(client.isClosedByPeer())
        #expect(proxy.log.wait(for: "access: POST /upload \(status)") != nil, "\(proxy.log.all)")
        proxy.expectReleased()
        #expect(early.waitForHandlers())
    }

    /// A response the proxy cannot read before anything went to the client is a 502.
    @Test(arguments: FaultVariant.all, [
        ("HTTP/1.1 2OO OK\r\nContent-Length: 2\r\n\r\nok", "sent an invalid response"),
        ("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\nok", "response framing"),
    ])
    func malformedResponseHeadIs502(_ variant: FaultVariant, response raw: (String, String)) throws {
        let bad = try FaultUpstream(tls: variant.tls) { peer in
            _ = peer.readHead()
            peer.send(raw.0)
            peer.drain()
        }
        defer { bad.stop() }
        let proxy = try FaultProxy(upstreamPort: bad.port, variant: variant)
        defer { proxy.shutdown() }
        let (client, response) = try Self.upload(to: proxy)
        #expect(response?.status == 502)
        #expect(response?.json?["flag"] as? String == "upstream_invalid_response")
        #expect(proxy.log.wait(for: "log: upstream up", raw.1) != nil, "\(proxy.log.all)")
        #expect(client.isClosedByPeer())
        proxy.expectReleased()
        #expect(bad.waitForHandlers())
    }

    /// Bad chunked framing after the head went to the client: the only honest signal left is to close the
    /// connection without the last chunk.
    @Test(arguments: FaultVariant.all)
    func badChunkedFramingAfterTheHeadClosesTheConnection(_ variant: FaultVariant) throws {
        let bad = try FaultUpstream(tls: variant.tls) { peer in
            _ = peer.readHead()
            peer.drainBody(ofLength: FaultProxy.body.count, chunked: variant.forward == .stream)
            peer.send("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\nzz\r\n")
            peer.drain()
        }
        defer { bad.stop() }
        let proxy = try FaultProxy(upstreamPort: bad.port, variant: variant)
        defer { proxy.shutdown() }
        let (client, response) = try Self.upload(to: proxy)
        #expect(response == nil)  // the head came, the body never ended
        #expect(client.peerClosed)
        #expect(proxy.log.wait(for: "access: POST /upload 200") != nil, "\(proxy.log.all)")
        #expect(proxy.log.wait(for: "log: upstream up sent a bad body") != nil, "\(proxy.log.all)")
        proxy.expectReleased()
        #expect(bad.waitForHandlers())
    }
}

extension FaultPeer {
    /// Reads a request body to its end: `length` bytes of Content-Length, or a chunked body up to its last
    /// chunk (found by its `0\r\n\r\n` ending, which a 2 MiB pseudo-random form does not otherwise hold at
    /// its very end).
    func drainBody(ofLength length: Int, chunked: Bool) {
        guard chunked else {
            read(atLeast: length)
            return
        }
        var tail: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        let end = Array("\r\n0\r\n\r\n".utf8)
        for _ in 0..<100_000 {
            let got = read(into: &buffer, count: buffer.count)
            if got <= 0 { return }
            tail = Array((tail + buffer[0..<got]).suffix(end.count))
            if tail == end { return }
        }
    }
}
