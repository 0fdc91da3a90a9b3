import Foundation
import LoopbackTestSupport
import Multipart
import Policy
import ProxyEngine
import Testing

@Suite("Drain", .serialized)
struct ProxyDrainTests {
    @Test func drainFinishesInFlightRequestsThenStops() throws {
        let bodyReceived = DispatchSemaphore(value: 0)
        let slow = try RawServer { fd in
            _ = RawServer.readHead(fd)
            var buffer = [UInt8](repeating: 0, count: 65536)
            var seen: [UInt8] = []
            while !seen.suffix(5).elementsEqual(Array("0\r\n\r\n".utf8)) {
                let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                if count <= 0 { return }
                seen += buffer[0..<count]
            }
            bodyReceived.signal()
            Thread.sleep(forTimeInterval: 0.5)
            RawServer.send(fd, "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
            _ = RawServer.drain(fd)
        }
        defer { slow.stop() }
        var route = RouteConfiguration(name: "all", upstream: "up")
        route.bufferSmallBodies = 0  // streamed: the upstream above reads up to the last chunk
        let settings = EngineSettings(
            listeners: [ListenerSettings(address: SocketAddress("127.0.0.1:0")!)],
            upstreams: ["up": UpstreamSettings(name: "up", address: SocketAddress("127.0.0.1:\(slow.port)")!,
                                               serverName: "localhost", tls: nil)],
            routes: [route], drainTimeout: .seconds(5))
        let proxy = ProxyServer(settings: settings)
        let port = try proxy.start()[0].port
        let idle = try TestHTTPClient(port: port)
        let busy = try TestHTTPClient(port: port)
        busy.send(ProxyHarness.request(ProxyHarness.multipart("b", [(name: "a", filename: nil, type: nil, data: [1])]), boundary: "b"))
        // Drain once the request is surely in flight: the upstream has its whole body, not yet an answer.
        #expect(bodyReceived.wait(timeout: .now() + 10) == .success)
        let started = Date()
        proxy.drain()
        let response = busy.readResponse()
        #expect(response?.status == 200)
        #expect(response?.header("connection") == "close")
        #expect(busy.isClosedByPeer())
        #expect(idle.isClosedByPeer())
        proxy.wait()
        #expect(Date().timeIntervalSince(started) < 4)
        #expect(throws: (any Error).self) { try TestHTTPClient(port: port) }
    }
}
