import Foundation
import LoopbackTestSupport
import Policy
import ProxyEngine

/// Requests and routes for the spool tests.
enum SpoolRequests {
    static let boundary = "spool-test-b0undary"

    /// `count` pseudo-random bytes (a fixed sequence, so two runs send the same body).
    static func bytes(_ count: Int, seed: UInt64 = 1) -> [UInt8] {
        var state = seed
        var out = [UInt8](repeating: 0, count: count)
        out.withUnsafeMutableBytes { raw in
            var index = 0
            while index < count {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                var word = state >> 16
                for _ in 0..<min(6, count - index) {
                    raw[index] = UInt8(truncatingIfNeeded: word)
                    word >>= 8
                    index += 1
                }
            }
        }
        return out
    }

    /// A form with a field, a file of `fileBytes` and a last part named `lastFilename` (a text file by default).
    static func form(fileBytes: Int, lastFilename: String = "note.txt") -> [UInt8] {
        ProxyHarness.multipart(boundary, [
            (name: "title", filename: nil, type: nil, data: Array("holiday".utf8)),
            (name: "photo", filename: "photo.bin", type: "application/octet-stream", data: bytes(fileBytes)),
            (name: "last", filename: lastFilename, type: "text/plain", data: Array("<?php echo 1; ?>".utf8)),
        ])
    }

    /// A multipart POST with Content-Length.
    static func upload(_ body: [UInt8], path: String = "/upload", extra: String = "") -> [UInt8] {
        ProxyHarness.request(body, boundary: boundary, path: path, extra: extra)
    }

    /// A POST whose body is sent chunked (in pieces of `chunk` bytes).
    static func chunked(_ body: [UInt8], contentType: String = "multipart/form-data; boundary=\(boundary)",
                        path: String = "/upload", chunk: Int = 100_000) -> [UInt8] {
        var out = Array(("POST \(path) HTTP/1.1\r\nHost: example.test\r\nContent-Type: \(contentType)\r\n"
            + "Transfer-Encoding: chunked\r\n\r\n").utf8)
        var offset = 0
        while offset < body.count {
            let end = min(body.count, offset + chunk)
            out += Array(String(end - offset, radix: 16).utf8) + [13, 10] + body[offset..<end] + [13, 10]
            offset = end
        }
        return out + Array("0\r\n\r\n".utf8)
    }

    /// A route to "echo" (or `upstream`) in `forward` mode.
    static func route(
        _ forward: RouteConfiguration.ForwardMode, spoolMemory: Int64 = RouteConfiguration.defaultSpoolMemory,
        upstream: String = "echo", rules: [Rule] = [], limits: RequestLimits = RequestLimits()
    ) -> RouteConfiguration {
        RouteConfiguration(name: "uploads", upstream: upstream, forward: forward, spoolMemory: spoolMemory,
                           limits: limits, rules: rules)
    }

    /// A rule refusing `.php` files with 422.
    static let rejectPHP = Rule(
        name: "no-php", match: RuleMatch(filename: [try! Glob("*.php", caseInsensitive: true)]),
        reject: Rule.Reject(status: 422))

    /// A proxy with `route` in front of the upstream at `port` ("up", TLS verified against the test CA if
    /// `tls`), spooling into `directory`.
    static func proxy(
        route: RouteConfiguration, upstreamPort: UInt16, directory: String, tls: Bool = false,
        events: EngineEvents = EngineEvents(), drainTimeout: Duration = .seconds(30)
    ) throws -> (ProxyServer, UInt16) {
        let settings = EngineSettings(
            listeners: [ListenerSettings(address: SocketAddress("127.0.0.1:0")!)],
            upstreams: ["up": UpstreamSettings(
                name: "up", address: SocketAddress("127.0.0.1:\(upstreamPort)")!, serverName: "localhost",
                tls: tls ? try TLSFixture.shared.clientContext() : nil)],
            routes: [route], drainTimeout: drainTimeout, spoolDirectory: directory)
        let proxy = ProxyServer(settings: settings, events: events)
        return (proxy, try proxy.start()[0].port)
    }
}
