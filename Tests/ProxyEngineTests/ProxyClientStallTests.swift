import Foundation
import LoopbackTestSupport
import ProxyEngine
import Testing

/// A client that stops sending its body, or stops reading its response, is timed out by the route's
/// `idle_timeout`; a client held back by a slow upstream is not.
@Suite("Client stalls mid-exchange", .serialized)
struct ProxyClientStallTests {
    /// Failed before: the client connection, and the upstream request it had started, stayed open for good
    /// (no timer ran once the head was read). Now 408 `body_timeout`, and everything is released.
    @Test(arguments: FaultVariant.all)
    func stallMidBodyIs408(_ variant: FaultVariant) throws {
        let received = FaultLog()
        let upstream = try FaultUpstream(tls: variant.tls) { peer in
            _ = peer.readHead()
            received.add("drained \(peer.drain())")
        }
        defer { upstream.stop() }
        let proxy = try FaultProxy(upstreamPort: upstream.port, variant: variant, idleTimeout: .milliseconds(500))
        defer { proxy.shutdown() }
        let client = try TestHTTPClient(port: proxy.port, timeout: 10)
        let started = Date()
        client.send(Array(FaultProxy.upload.prefix(1 << 20)))
        let response = client.readResponse()
        #expect(response?.status == 408)
        #expect(response?.json?["flag"] as? String == "body_timeout")
        #expect(Date().timeIntervalSince(started) < 5)
        #expect(client.isClosedByPeer())
        proxy.expectReleased()
        #expect(upstream.waitForHandlers())
        if variant.forward == .stream {
            #expect(received.all.count == 1)  // the upstream saw its request cut short
        } else {
            #expect(received.all.isEmpty)  // a spooled body never reached it
        }
    }

    /// An upstream that takes the body slowly pauses the client for longer than the idle timeout: the client
    /// is not to blame, and the upload completes.
    @Test(arguments: [false, true])
    func aClientHeldBackByTheUpstreamIsNotTimedOut(_ tls: Bool) throws {
        let body = SpoolRequests.form(fileBytes: 24 << 20)
        let upstream = try FaultUpstream(tls: tls) { peer in
            guard peer.readHead() != nil else { return }
            Thread.sleep(forTimeInterval: 1.5)  // three idle timeouts without reading
            _ = peer.read(atLeast: body.count)
            peer.send("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok")
        }
        defer { upstream.stop() }
        let proxy = try FaultProxy(
            upstreamPort: upstream.port, variant: FaultVariant(tls: tls, forward: .stream),
            idleTimeout: .milliseconds(500))
        defer { proxy.shutdown() }
        let client = try TestHTTPClient(port: proxy.port, timeout: 20)
        client.send(SpoolRequests.upload(body))
        let response = client.readResponse()
        #expect(response?.status == 200, "\(proxy.log.all)")
        #expect(response?.text == "ok")
    }

    /// Failed before: a client that read none of a large response held the exchange, and the upstream
    /// connection paused behind it, for good.
    @Test(arguments: [false, true])
    func aClientThatReadsNoneOfItsResponseIsClosed(_ tls: Bool) throws {
        let outcome = FaultLog()
        let upstream = try FaultUpstream(tls: tls) { peer in
            guard peer.readHead() != nil else { return }
            let size = 256 << 20
            let started = Date()
            var sent = peer.send("HTTP/1.1 200 OK\r\nContent-Length: \(size)\r\n\r\n")
            let piece = [UInt8](repeating: 0x61, count: 1 << 20)
            var count = 0
            while sent, count < size {
                sent = peer.send(piece)
                count += piece.count
            }
            outcome.add("\(sent ? "sent all" : "cut") after \(Date().timeIntervalSince(started))")
        }
        defer { upstream.stop() }
        let proxy = try FaultProxy(
            upstreamPort: upstream.port, variant: FaultVariant(tls: tls, forward: .stream),
            idleTimeout: .milliseconds(500))
        defer { proxy.shutdown() }
        let client = try TestHTTPClient(port: proxy.port, timeout: 20)
        client.send("GET /big HTTP/1.1\r\nHost: a\r\n\r\n")
        let line = outcome.wait(for: "after", seconds: 15)
        #expect(line?.hasPrefix("cut") == true, "\(line ?? "none"); \(proxy.log.all)")
        #expect(proxy.log.wait(for: "read none of its response") != nil, "\(proxy.log.all)")
        proxy.expectReleased()
        _ = client
    }
}
