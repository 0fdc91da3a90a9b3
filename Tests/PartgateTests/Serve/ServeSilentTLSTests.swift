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

    /// A client whose bytes are not TLS fails its handshake: counted in
    /// `partgate_client_tls_handshake_failures_total`.
    @Test func aFailedClientHandshakeIsCounted() throws {
        let fixture = try ServeFixture()
        defer { fixture.remove() }
        let yaml = ServeFixture.config(upstream: fixture.echoUpstream(), workers: 1, tlsListener: true)
            + "\nadmin: { address: 127.0.0.1:0 }\n"
        let (serve, ports) = try fixture.serve(yaml, listeners: 3)
        defer { serve.kill() }
        let admin = AdminClient(port: ports[2])
        #expect(try admin.metrics()?.value("partgate_client_tls_handshake_failures_total") == 0)
        let garbage = try TestHTTPClient(port: ports[1], timeout: 5)
        garbage.send([0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07])
        #expect(garbage.isClosedByPeer())
        let counted = try admin.metrics { $0.value("partgate_client_tls_handshake_failures_total") == 1 }
        #expect(counted != nil)
        serve.expectCleanStop()
    }
}
