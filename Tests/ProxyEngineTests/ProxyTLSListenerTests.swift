import CEventTLS
import Foundation
import Glibc
import LoopbackTestSupport
import ProxyEngine
import Testing

/// The client side of a TLS listener: the SSL object waits for the client's first byte, a silent client is
/// closed at the header timeout, and an orderly end between requests carries close_notify.
@Suite("Proxy TLS listener", .serialized)
struct ProxyTLSListenerTests {
    static func harness(headerTimeout: Duration = .seconds(10), idleTimeout: Duration = .seconds(60)) throws
        -> ProxyHarness
    {
        let context = try TLSFixture.shared.serverContext()
        return try ProxyHarness { settings in
            settings.listeners = [ListenerSettings(address: SocketAddress("127.0.0.1:0")!, tls: context)]
            settings.headerTimeout = headerTimeout
            settings.idleTimeout = idleTimeout
        }
    }

    static func client(_ port: UInt16) throws -> BlockingTLSEndpoint {
        let socket = try TestSocket.connect(port: port)
        socket.setReceiveTimeout(seconds: 5)
        return BlockingTLSEndpoint(
            ssl: try TLSFixture.shared.clientContext().makeSSL(serverName: "localhost"), socket: socket)
    }

    /// Sends `request` and reads one response with a Content-Length, head and body; nil if it did not come whole.
    static func exchange(_ client: BlockingTLSEndpoint, _ request: String) -> String? {
        guard client.write(request) == nil else { return nil }
        var received: [UInt8] = []
        let separator = Array("\r\n\r\n".utf8)
        while true {
            if let end = received.firstRange(of: separator) {
                let head = String(decoding: received[..<end.lowerBound], as: UTF8.self).lowercased()
                let length = head.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
                    .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) }
                if let length, received.count - end.upperBound >= length {
                    return String(decoding: received, as: UTF8.self)
                }
            }
            guard case .success(let text) = client.read(count: 1), !text.isEmpty else { return nil }
            received += Array(text.utf8)
        }
    }

    @Test func aClientThatWaitsBeforeItsClientHelloIsServed() throws {
        let harness = try Self.harness()
        defer { harness.shutdown() }
        let client = try Self.client(harness.port)
        Thread.sleep(forTimeInterval: 0.3)
        #expect((try? client.handshake(asServer: false).get()) != nil)
        let response = Self.exchange(client, "GET /x HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n")
        #expect(response?.hasPrefix("HTTP/1.1 200 ") == true, "\(response ?? "nil")")
        client.close()
    }

    /// A plain HTTP request on the TLS port gets a readable 400, as nginx answers it, not a reset.
    @Test func plainHTTPOnTheTLSPortIsAnswered400() throws {
        let harness = try Self.harness()
        defer { harness.shutdown() }
        let client = try TestHTTPClient(port: harness.port, timeout: 5)
        client.send("GET / HTTP/1.1\r\nHost: a\r\n\r\n")
        let response = try #require(client.readResponse())
        #expect(response.status == 400)
        #expect(response.json?["flag"] as? String == "plain_http_on_tls_port")
        #expect(client.isClosedByPeer())
    }

    @Test func aSilentClientIsClosedAtTheHeaderTimeout() throws {
        let harness = try Self.harness(headerTimeout: .milliseconds(300))
        defer { harness.shutdown() }
        let socket = try TestSocket.connect(port: harness.port)
        socket.setReceiveTimeout(seconds: 5)
        let started = Date()
        var byte: UInt8 = 0
        let count = recv(socket.fd, &byte, 1, 0)
        #expect(count == 0, "closed, not timed out")
        #expect(Date().timeIntervalSince(started) < 4)
        socket.close()
    }

    /// RFC 8446 §6.1: each side sends close_notify before closing its write side.
    @Test(arguments: ["keep-alive timeout", "the client's close_notify"])
    func anOrderlyEndBetweenRequestsSendsCloseNotify(trigger: String) throws {
        let harness = try Self.harness(idleTimeout: .milliseconds(300))
        defer { harness.shutdown() }
        let client = try Self.client(harness.port)
        #expect((try? client.handshake(asServer: false).get()) != nil)
        let response = Self.exchange(client, "GET /x HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(response?.hasPrefix("HTTP/1.1 200 ") == true)
        if trigger == "the client's close_notify" { _ = SSL_shutdown(client.ssl) }
        var byte: UInt8 = 0
        ERR_clear_error()
        let result = SSL_read(client.ssl, &byte, 1)
        #expect(result <= 0 && SSL_get_error(client.ssl, result) == SSL_ERROR_ZERO_RETURN, "close_notify, not a bare FIN")
        client.close()
    }
}
