import Foundation
import LoopbackTestSupport
import Testing

/// Connections to a TLS listener that never send a ClientHello cost a socket and a small object each: the
/// SSL object and its handshake buffers (~40 KB a connection before) wait for the client's first byte.
@Suite("partgate serve: silent TLS clients", .serialized)
struct ServeSilentTLSTests {
    static func residentKiB(_ pid: Int32) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
        else { return nil }
        return Int(line.split(separator: " ").dropFirst().first ?? "")
    }

    @Test func fiveHundredSilentClientsCostLittleMemory() throws {
        let fixture = try ServeFixture()
        defer { fixture.remove() }
        let (serve, ports) = try fixture.serve(
            ServeFixture.config(upstream: fixture.echoUpstream(), workers: 1, tlsListener: true), listeners: 2)
        defer { serve.kill() }
        Thread.sleep(forTimeInterval: 0.3)
        let before = try #require(Self.residentKiB(serve.pid))
        var silent: [TestHTTPClient] = []
        for _ in 0..<500 { silent.append(try TestHTTPClient(port: ports[1], timeout: 5)) }
        Thread.sleep(forTimeInterval: 1)  // every connection accepted (and, before, its handshake begun)
        let after = try #require(Self.residentKiB(serve.pid))
        #expect(after - before < 6 * 1024, "\(after - before) KiB for 500 silent TLS connections")
        silent.removeAll()
        serve.expectCleanStop()
    }
}
