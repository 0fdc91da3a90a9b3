import CEventTLS
import Foundation
import LoopbackTestSupport
import ProxyEngine
import Testing

/// Upstream failures through the real binary: 502 or 504 as problem+json, the reason in the JSON log on
/// standard output and never in the response.
@Suite("serve: upstream failures through the binary", .serialized)
struct ServeUpstreamFailureTests {
    /// Runs one curl upload through a proxy configured with `upstream` and stops the proxy; returns curl's
    /// reply and the log line naming the failure (the first `warning` line).
    static func failingUpload(_ fixture: ServeFixture, upstream: [String]) throws -> (Curl.Result, [String: Any]?) {
        let (serve, ports) = try fixture.serve(ServeFixture.config(upstream: upstream))
        defer { serve.kill() }
        let curl = try Curl.run(["-i", "-F", "title=hello", "http://127.0.0.1:\(ports[0])/upload"])
        let warning = serve.waitForLogLine { $0["level"] as? String == "warning" }
        let refused = serve.waitForLog("refused")
        #expect(refused?["status"] as? Int == problem(curl).status)
        #expect(refused?["route"] as? String == "all" && refused?["method"] as? String == "POST")
        #expect(refused?["target"] as? String == "/upload" && refused?["request"] is String)
        // The answer has its access line, as every answer has.
        let access = serve.waitForLog("access")
        #expect(access?["status"] as? Int == problem(curl).status && access?["target"] as? String == "/upload")
        serve.expectCleanStop()
        return (curl, warning)
    }

    /// The status line, headers and problem+json body of a `curl -i` reply.
    static func problem(_ curl: Curl.Result) -> (status: Int?, contentType: String?, json: [String: Any]?) {
        let sections = curl.stdout.components(separatedBy: "\r\n\r\n")
        let head = sections.first?.components(separatedBy: "\r\n") ?? []
        let status = head.first?.split(separator: " ").dropFirst().first.flatMap { Int($0) }
        let contentType = head.first { $0.lowercased().hasPrefix("content-type:") }?
            .dropFirst("content-type:".count).trimmingCharacters(in: .whitespaces)
        return (status, contentType, sections.dropFirst().first.flatMap(ServeProcess.json))
    }

    /// Whether `localhost` resolves to `::1` too here (Debian's and Docker's /etc/hosts say so) and `::1` is up.
    static let localhostHasIPv6: Bool = {
        guard (try? SocketAddress.resolveAll(host: "localhost", port: 443))?.contains(where: { $0.isIPv6 }) == true
        else { return false }
        let probe = socket(AF_INET6, Int32(SOCK_STREAM.rawValue), 0)
        guard probe >= 0 else { return false }
        defer { close(probe) }
        var address = sockaddr_in6()
        address.sin6_family = sa_family_t(AF_INET6)
        address.sin6_addr = in6addr_loopback
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(probe, $0, socklen_t(MemoryLayout<sockaddr_in6>.size))
            }
        } == 0
    }()

    /// `localhost` served on `::1` only (a Node.js server's default on some systems): the connect to 127.0.0.1 is
    /// refused, and the upload reaches the upstream on `::1`, as it would through nginx.
    @Test(.enabled(if: localhostHasIPv6, "localhost has no ::1 address here"))
    func localhostServedOnIPv6OnlyIsReached() throws {
        let fixture = try ServeFixture()
        defer { fixture.remove() }
        let (echo6, port) = try fixture.startEcho(at: SocketAddress("[::1]:0")!)
        defer { echo6.stop() }
        let (serve, ports) = try fixture.serve(
            ServeFixture.config(upstream: ["url: https://localhost:\(port)", "tls: { ca: tls/ca.pem }"]))
        defer { serve.kill() }
        for _ in 0..<2 {
            let curl = try Curl.run(["-s", "-F", "title=hello", "http://127.0.0.1:\(ports[0])/upload"])
            #expect(curl.status == 0)
            let parts = curl.jsonObjects.first?["parts"] as? [[String: Any]]
            #expect(parts?.first?["name"] as? String == "title", "\(curl.stdout)")
        }
        #expect(fixture.recorder.records.count == 2)
        serve.expectCleanStop()
    }

    @Test func untrustedUpstreamCertificateIs502WithTheReasonOnlyInTheLog() throws {
        let fixture = try ServeFixture()
        defer { fixture.remove() }
        let (curl, warning) = try Self.failingUpload(fixture, upstream: fixture.echoUpstream(ca: "tls/other-ca.pem"))
        let reply = Self.problem(curl)
        #expect(reply.status == 502)
        #expect(reply.contentType == "application/problem+json")
        #expect(reply.json?["flag"] as? String == "upstream_failed")
        #expect(!curl.stdout.contains("certificate"))
        let message = try #require(warning?["msg"] as? String)
        #expect(message.contains("certificate verify failed"), "\(message)")
        #expect(fixture.recorder.records.isEmpty)
    }

    @Test func wrongServerNameIs502WithHostnameMismatchInTheLog() throws {
        let fixture = try ServeFixture()
        defer { fixture.remove() }
        let (curl, warning) = try Self.failingUpload(fixture, upstream: fixture.echoUpstream(serverName: "wrong.example"))
        let reply = Self.problem(curl)
        #expect(reply.status == 502)
        #expect(reply.json?["flag"] as? String == "upstream_failed")
        #expect(!curl.stdout.contains("mismatch"))
        let message = try #require(warning?["msg"] as? String)
        #expect(message.contains("hostname mismatch"), "\(message)")
        #expect(fixture.recorder.records.isEmpty)
    }

    @Test func refusedConnectionIs502() throws {
        let fixture = try ServeFixture()
        defer { fixture.remove() }
        let refusing = RefusingPort()  // bound, never listening: connections are refused
        defer { withExtendedLifetime(refusing) {} }
        let port = refusing.port
        let (curl, warning) = try Self.failingUpload(fixture, upstream: ["url: http://127.0.0.1:\(port)"])
        let reply = Self.problem(curl)
        #expect(reply.status == 502)
        #expect(reply.json?["flag"] as? String == "upstream_failed")
        #expect(!curl.stdout.contains("refused"))
        let message = try #require(warning?["msg"] as? String)
        #expect(message.contains("Connection refused"), "\(message)")
    }

    @Test func upstreamThatNeverAnswersIs504AfterTheResponseTimeout() throws {
        let fixture = try ServeFixture()
        defer { fixture.remove() }
        let stall = try RawServer { fd in _ = RawServer.drain(fd) }  // reads everything, answers nothing
        defer { stall.stop() }
        let started = Date()
        let (curl, warning) = try Self.failingUpload(
            fixture, upstream: ["url: http://127.0.0.1:\(stall.port)", "response_timeout: 500ms"])
        let reply = Self.problem(curl)
        #expect(reply.status == 504)
        #expect(reply.json?["flag"] as? String == "upstream_timeout")
        #expect((warning?["msg"] as? String)?.contains("timed out") == true, "\(warning ?? [:])")
        #expect(Date().timeIntervalSince(started) < 10)
    }
}
