import Foundation
import Policy
import ProxyEngine
import Testing

/// A client that stops reading while a large response streams to it: the proxy's writes block once the socket is
/// full, and must resume when the client reads again.
///
/// TLS: the engine has the OpenSSL bufferevent write in the turn that queued bytes, by making its write event
/// active. libevent's `event_add` skips an event that is active and not yet added, so the bufferevent's own add was
/// lost whenever the output had been empty; with no timeout on the event (libevent re-adds a persistent event that
/// has one) a write that then blocked left bytes queued and no EPOLLOUT registered, and the response stalled.
///
/// Plain: ``PlainSocket`` writes directly and waits for EPOLLOUT only for what the socket did not take; without
/// that wait the rest of the response would sit in the output until the idle timeout.
@Suite struct ProxyClientPauseTests {
    @Test(arguments: [false, true])
    func aLargeResponseResumesAfterTheClientPaused(tls: Bool) throws {
        let total = 16 << 20
        let upstream = try FaultUpstream(tls: false) { peer in
            _ = peer.readHead()
            let block = [UInt8](repeating: 120, count: 64 * 1024)
            var count = 0
            if peer.send("HTTP/1.1 200 OK\r\nContent-Length: \(total)\r\n\r\n") {
                while count < total, peer.send(block) { count += block.count }
            }
        }
        defer { upstream.stop() }
        let upstreamSettings = UpstreamSettings(
            name: "up", address: SocketAddress("127.0.0.1:\(upstream.port)")!, serverName: "localhost", tls: nil)
        let settings = EngineSettings(
            listeners: [
                ListenerSettings(
                    address: SocketAddress("127.0.0.1:0")!, tls: tls ? try TLSFixture.shared.serverContext() : nil)
            ],
            upstreams: ["up": upstreamSettings], routes: [SpoolRequests.route(.stream, upstream: "up")])
        let proxy = ProxyServer(settings: settings, events: FaultLog().events)
        let port = try proxy.start()[0].port
        defer {
            proxy.stop()
            proxy.wait()
        }

        let socket = try TestSocket.connect(port: port)
        socket.setReceiveTimeout(seconds: 10)
        let request = "GET /big HTTP/1.1\r\nHost: example.test\r\nConnection: close\r\n\r\n"
        let client = tls
            ? BlockingTLSEndpoint(
                ssl: try TLSFixture.shared.clientContext().makeSSL(serverName: "localhost"), socket: socket)
            : nil
        if let client {
            #expect((try? client.handshake(asServer: false).get()) != nil)
            #expect(client.write(request) == nil)
        } else {
            #expect(send(socket.fd, request, request.utf8.count, 0) == request.utf8.count)
        }
        // Megabytes queue in the socket buffers and the proxy's writes block before the client reads anything.
        Thread.sleep(forTimeInterval: 1)
        let started = Date()
        // Ends when the proxy closes, as the request asked.
        let received = client?.drain(upTo: total + 4096) ?? Self.drain(socket, upTo: total + 4096)
        // The head (about a hundred bytes) and the whole body, well before the 10-s receive timeout.
        #expect(received > total && received < total + 1024, "received \(received) of \(total) body bytes")
        #expect(Date().timeIntervalSince(started) < 9)
        client?.close()
        socket.close()
    }

    /// Reads a plain socket until the peer closes, `limit` bytes, or the receive timeout.
    private static func drain(_ socket: TestSocket, upTo limit: Int) -> Int {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var total = 0
        while total < limit {
            let count = recv(socket.fd, &buffer, min(buffer.count, limit - total), 0)
            guard count > 0 else { break }
            total += count
        }
        return total
    }
}
