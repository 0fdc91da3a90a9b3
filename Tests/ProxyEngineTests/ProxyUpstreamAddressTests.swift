import Foundation
import LoopbackTestSupport
import ProxyEngine
import Testing

/// An upstream whose name has several addresses: a connect that fails before any request byte went out (refused,
/// timed out) tries the next address with the request bytes queued so far, as nginx tries each address of a name;
/// the worker then starts new connections at the address it reached.
@Suite("Upstreams with several addresses", .serialized)
struct ProxyUpstreamAddressTests {
    /// An upstream that reads one whole request (chunked or with a Content-Length), records how it ended, and
    /// answers 200 with `Connection: close` (so each upload makes a new upstream connection).
    static func answering(_ variant: FaultVariant, _ received: FaultLog) throws -> FaultUpstream {
        try FaultUpstream(tls: variant.tls) { peer in
            guard let head = peer.readHead()?.lowercased() else { return }
            var buffer = [UInt8](repeating: 0, count: 65536)
            var tail: [UInt8] = []
            var total = 0
            let length = head.components(separatedBy: "\r\n").first { $0.hasPrefix("content-length:") }
                .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) }
            while true {
                if let length, total >= length { break }
                if length == nil, tail.count >= 5, tail.suffix(5) == Array("0\r\n\r\n".utf8) { break }
                let got = peer.read(into: &buffer, count: buffer.count)
                if got <= 0 { return }
                total += got
                tail = Array((tail + buffer[0..<got]).suffix(5))
            }
            received.add("whole \(total)")
            peer.send("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok")
        }
    }

    /// The first address refuses: the upload reaches the second whole, and nothing is left behind.
    @Test(arguments: FaultVariant.all)
    func refusedAddressFallsThroughToTheNext(_ variant: FaultVariant) throws {
        let refusing = RefusingPort()
        defer { withExtendedLifetime(refusing) {} }
        let received = FaultLog()
        let upstream = try Self.answering(variant, received)
        defer { upstream.stop() }
        let proxy = try FaultProxy(upstreamPort: refusing.port, variant: variant, alternatePorts: [upstream.port])
        defer { proxy.shutdown() }
        let (_, response) = try ProxyUpstreamFaultLeakTests.upload(to: proxy)
        #expect(response?.status == 200, "\(proxy.log.all)")
        #expect(response?.body == Array("ok".utf8))
        #expect(received.all.count == 1 && received.all.first?.hasPrefix("whole ") == true, "\(received.all)")
        proxy.expectReleased()
        #expect(upstream.waitForHandlers())
    }

    /// The first address never completes the connect: after the connect timeout the upload goes to the second.
    /// The worker remembers the address it reached, so the next upload does not wait for the first again.
    @Test(arguments: FaultVariant.all.filter { $0.forward == .stream })
    func timedOutAddressFallsThroughAndTheReachedOneComesFirst(_ variant: FaultVariant) throws {
        let unreachable = try FullBacklogListener()
        defer { withExtendedLifetime(unreachable) {} }
        let received = FaultLog()
        let upstream = try Self.answering(variant, received)
        defer { upstream.stop() }
        let proxy = try FaultProxy(
            upstreamPort: unreachable.port, variant: variant, connectTimeout: .seconds(2),
            alternatePorts: [upstream.port])
        defer { proxy.shutdown() }

        var started = Date()
        let (_, first) = try ProxyUpstreamFaultLeakTests.upload(to: proxy)
        #expect(first?.status == 200, "\(proxy.log.all)")
        #expect(Date().timeIntervalSince(started) >= 1.9)

        started = Date()
        let (_, second) = try ProxyUpstreamFaultLeakTests.upload(to: proxy)
        #expect(second?.status == 200, "\(proxy.log.all)")
        #expect(Date().timeIntervalSince(started) < 1.5)
        #expect(received.all.count == 2, "\(received.all)")
        proxy.expectReleased()
        #expect(upstream.waitForHandlers())
    }

    /// Every address refuses: 502, and the log line names each attempt.
    @Test(arguments: FaultVariant.all.filter { $0.forward == .stream })
    func everyAddressRefusingIs502(_ variant: FaultVariant) throws {
        let first = RefusingPort()
        let second = RefusingPort()
        defer { withExtendedLifetime((first, second)) {} }
        let proxy = try FaultProxy(upstreamPort: first.port, variant: variant, alternatePorts: [second.port])
        defer { proxy.shutdown() }
        let (_, response) = try ProxyUpstreamFaultLeakTests.upload(to: proxy)
        #expect(response?.status == 502)
        #expect(response?.json?["flag"] as? String == "upstream_failed")
        let line = proxy.log.wait(for: "log: upstream up: connect failed", "(after 127.0.0.1:\(first.port): connect")
        #expect(line != nil, "\(proxy.log.all)")
        proxy.expectReleased()
    }

    /// A name resolves to each of its addresses once, IPv4 first; a numeric address to itself.
    @Test func resolvingListsEveryAddressIPv4First() throws {
        let numeric = try SocketAddress.resolveAll(host: "127.0.0.1", port: 8443)
        #expect(numeric == [SocketAddress("127.0.0.1:8443")!])
        let localhost = try SocketAddress.resolveAll(host: "localhost", port: 8443)
        #expect(localhost.first == SocketAddress("127.0.0.1:8443")!)
        #expect(Set(localhost).count == localhost.count)
        let firstIPv6 = localhost.firstIndex(where: \.isIPv6) ?? localhost.endIndex
        #expect(localhost[firstIPv6...].allSatisfy { $0.isIPv6 })
        let one = try SocketAddress.resolve(host: "localhost", port: 8443)
        #expect(one == localhost[0])
    }
}
