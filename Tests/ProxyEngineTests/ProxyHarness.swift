import Foundation
import LoopbackTestSupport
import Multipart
import Policy
import ProxyEngine

/// A proxy in front of an echo upstream, both on loopback with port 0, started and stopped per test.
final class ProxyHarness {
    let upstream: EchoUpstream
    let proxy: ProxyServer
    let recorder = EchoRecorder()
    let port: UInt16

    init(
        route: RouteConfiguration = RouteConfiguration(name: "all", upstream: "echo"),
        events: EngineEvents = EngineEvents(), settings: (inout EngineSettings) -> Void = { _ in }
    ) throws {
        let recorder = self.recorder
        upstream = EchoUpstream { recorder.append($0) }
        let upstreamAddress = try upstream.start(address: SocketAddress("127.0.0.1:0")!)
        var engine = EngineSettings(
            listeners: [ListenerSettings(address: SocketAddress("127.0.0.1:0")!)],
            upstreams: ["echo": UpstreamSettings(name: "echo", address: upstreamAddress, serverName: "localhost", tls: nil)],
            routes: [route])
        settings(&engine)
        proxy = ProxyServer(settings: engine, events: events)
        port = try proxy.start()[0].port
    }

    func shutdown() {
        proxy.stop()
        proxy.wait()
        upstream.stop()
    }

    static func multipart(_ boundary: String, _ parts: [(name: String, filename: String?, type: String?, data: [UInt8])]) -> [UInt8] {
        var out: [UInt8] = []
        for part in parts {
            out += Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(part.name)\"".utf8)
            if let filename = part.filename { out += Array("; filename=\"\(filename)\"".utf8) }
            out += Array("\r\n".utf8)
            if let type = part.type { out += Array("Content-Type: \(type)\r\n".utf8) }
            out += Array("\r\n".utf8) + part.data + Array("\r\n".utf8)
        }
        return out + Array("--\(boundary)--\r\n".utf8)
    }

    static func request(_ body: [UInt8], boundary: String, path: String = "/upload", extra: String = "") -> [UInt8] {
        Array("POST \(path) HTTP/1.1\r\nHost: example.test\r\nContent-Type: multipart/form-data; boundary=\(boundary)\r\nContent-Length: \(body.count)\r\n\(extra)\r\n".utf8) + body
    }
}

extension ProxyServer {
    /// A started proxy on 127.0.0.1 (port 0) with one route to a plain upstream on 127.0.0.1:`upstreamPort`;
    /// the caller stops it (`stop()`, `wait()`).
    static func started(toPlainUpstream upstreamPort: UInt16) throws -> (ProxyServer, UInt16) {
        let settings = EngineSettings(
            listeners: [ListenerSettings(address: SocketAddress("127.0.0.1:0")!)],
            upstreams: ["up": UpstreamSettings(name: "up", address: SocketAddress("127.0.0.1:\(upstreamPort)")!,
                                               serverName: "localhost", tls: nil)],
            routes: [RouteConfiguration(name: "all", upstream: "up")])
        let proxy = ProxyServer(settings: settings)
        return (proxy, try proxy.start()[0].port)
    }
}
