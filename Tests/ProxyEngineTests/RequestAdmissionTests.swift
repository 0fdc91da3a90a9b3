import HTTP1
import Multipart
import Policy
import Testing

@testable import ProxyEngine

/// The checks a head goes through before its body, and the upstream head, without I/O: the code the
/// connection and `partgate rewrite` share.
@Suite("Request admission")
struct RequestAdmissionTests {
    static func head(_ text: String) throws -> RequestHead {
        var parser = RequestHeadParser()
        let bytes = Array(text.utf8)
        guard case .complete(let head, _) = bytes.withUnsafeBytes({ parser.feed($0) }) else {
            throw ParseFailure()
        }
        return head
    }

    struct ParseFailure: Error {}

    static let rewriting = RouteConfiguration(
        name: "uploads", match: RouteMatch(pathPrefix: "/upload"), upstream: "u",
        rules: [Rule(name: "drop", match: RuleMatch(field: [try! Glob("x*")]), strip: true)])
    static let plain = RouteConfiguration(name: "rest", upstream: "u")

    static func problem(_ text: String, route: RouteConfiguration = rewriting) throws -> Problem? {
        let head = try head(text)
        do {
            let checked = try RequestAdmission.checkHead(head)
            _ = try RequestAdmission.body(head, framing: checked.framing, route: route)
            return nil
        } catch {
            return error
        }
    }

    @Test func routesOnHostPathAndMethodFirstMatchFirst() throws {
        let head = try Self.head("POST /upload/a?x HTTP/1.1\r\nHost: Example.test:8080\r\n\r\n")
        let checked = try RequestAdmission.checkHead(head)
        #expect(checked.host == "Example.test")
        #expect(checked.path == "/upload/a")
        #expect(RequestAdmission.route(for: head, checked, in: [Self.rewriting, Self.plain])?.name == "uploads")
        let other = try Self.head("POST /uploads HTTP/1.1\r\nHost: h\r\n\r\n")
        #expect(RequestAdmission.route(for: other, try RequestAdmission.checkHead(other), in: [Self.rewriting]) == nil)
    }

    @Test func refusesAmbiguousHeads() throws {
        let lookalike = try Self.problem("POST /upload HTTP/1.1\r\nHost: h\r\nContent_Type: text/plain\r\n\r\n")
        #expect(lookalike?.status == 400 && lookalike?.name == "ambiguous_header_name")
        let connect = try Self.problem("CONNECT h:443 HTTP/1.1\r\nHost: h:443\r\n\r\n")
        #expect(connect?.status == 405)
        let twoTypes = try Self.problem(
            "POST /upload HTTP/1.1\r\nHost: h\r\nContent-Type: a/b\r\nContent-Type: c/d\r\nContent-Length: 1\r\n\r\n")
        #expect(twoTypes?.status == 400 && twoTypes?.name == "duplicate_content_type")
        let ambiguousBoundary = try Self.problem(
            "POST /upload HTTP/1.1\r\nHost: h\r\nContent-Type: multipart/form-data; boundary=a; boundary=b\r\nContent-Length: 1\r\n\r\n"
        )
        #expect(ambiguousBoundary?.status == 400 && ambiguousBoundary?.name == "duplicate_parameter")
    }

    @Test func otherBodiesFollowTheRoute() throws {
        let json = "POST /upload HTTP/1.1\r\nHost: h\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n"
        #expect(try Self.problem(json)?.status == 415)
        #expect(try Self.problem(json, route: Self.plain) == nil)
        let untyped = "POST /upload HTTP/1.1\r\nHost: h\r\nContent-Length: 2\r\n\r\n"
        #expect(try Self.problem(untyped)?.name == "content_type_missing")
        let empty = "POST /upload HTTP/1.1\r\nHost: h\r\nContent-Length: 0\r\n\r\n"
        #expect(try Self.problem(empty) == nil)
    }

    @Test func refusesADeclaredLengthOverTheRouteLimit() throws {
        var route = Self.plain
        route.limits.bodyBytes = 10
        let problem = try Self.problem("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 11\r\n\r\n", route: route)
        #expect(problem == Problem.bodyTooLarge(10))
        #expect(problem?.status == 413)
    }

    @Test func upstreamHeadForEachBodyForm() throws {
        let head = try Self.head(
            "POST http://h/upload HTTP/1.0\r\nHost: h\r\nConnection: keep-alive, X-Hop\r\nX-Hop: 1\r\nVia: 1.1 a\r\n"
                + "Content-Type: multipart/form-data; boundary=c\r\nContent-Length: 9\r\nExpect: 100-continue\r\n\r\n")
        let common = "POST /upload HTTP/1.1\r\nHost: h\r\n"
        let forwarding = "X-Forwarded-For: 192.0.2.1\r\nX-Forwarded-Proto: https\r\n"
            + "Forwarded: for=192.0.2.1;proto=https\r\nVia: 1.1 a, 1.0 partgate\r\n"
        let spooled = UpstreamRequestHead.make(
            head, client: "192.0.2.1", tls: true,
            body: .rewritten(boundary: Boundary("n")!, length: 42), defaultHost: "up")
        #expect(
            String(decoding: spooled, as: UTF8.self) == common + forwarding
                + "Content-Type: multipart/form-data; boundary=n\r\nContent-Length: 42\r\n\r\n")
        let streamed = UpstreamRequestHead.make(
            head, client: "192.0.2.1", tls: true,
            body: .rewritten(boundary: Boundary("n")!, length: nil), defaultHost: "up")
        #expect(
            String(decoding: streamed, as: UTF8.self) == common + forwarding
                + "Content-Type: multipart/form-data; boundary=n\r\nTransfer-Encoding: chunked\r\n\r\n")
        let relayed = UpstreamRequestHead.make(
            head, client: "192.0.2.1", tls: true, body: .relayed(.contentLength(9)), defaultHost: "up")
        #expect(
            String(decoding: relayed, as: UTF8.self) == common
                + "Content-Type: multipart/form-data; boundary=c\r\n" + forwarding + "Content-Length: 9\r\n\r\n")
    }

    /// The connection's forwarding lines, made once, are what the head gets when the client sent none of its own:
    /// IPv4 and IPv6 clients, plain and TLS; with any of the three fields received (or HTTP/1.0) they are written
    /// line by line, the received values first.
    @Test(arguments: [("192.0.2.1", "for=192.0.2.1"), ("::1", "for=\"[::1]\"")], [false, true])
    func forwardingLinesForAClientThatSentNone(client: (address: String, element: String), tls: Bool) throws {
        let proto = tls ? "https" : "http"
        let lines = "X-Forwarded-For: \(client.address)\r\nX-Forwarded-Proto: \(proto)\r\n"
            + "Forwarded: \(client.element);proto=\(proto)\r\nVia: 1.1 partgate\r\n"
        #expect(String(decoding: ForwardingIdentity(client: client.address, tls: tls).lines, as: UTF8.self) == lines)
        let plain = try Self.head("GET /a HTTP/1.1\r\nHost: h\r\nX-Other: 1\r\n\r\n")
        let written = UpstreamRequestHead.make(
            plain, client: client.address, tls: tls, body: .relayed(.none), defaultHost: "up")
        #expect(String(decoding: written, as: UTF8.self) == "GET /a HTTP/1.1\r\nHost: h\r\nX-Other: 1\r\n" + lines + "\r\n")
        for (field, expected) in [
            ("X-Forwarded-For: 10.0.0.9", "X-Forwarded-For: 10.0.0.9, \(client.address)\r\n"),
            ("forwarded: for=10.0.0.9", "Forwarded: for=10.0.0.9, \(client.element);proto=\(proto)\r\n"),
            ("VIA: 1.1 edge", "Via: 1.1 edge, 1.1 partgate\r\n"),
        ] {
            let head = try Self.head("GET /a HTTP/1.1\r\nHost: h\r\n\(field)\r\n\r\n")
            let bytes = UpstreamRequestHead.make(
                head, client: client.address, tls: tls, body: .relayed(.none), defaultHost: "up")
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(text.contains(expected), "\(field): \(text)")
            #expect(!text.contains(field + "\r\n"), "\(field) was relayed as received: \(text)")
        }
        let old = try Self.head("GET /a HTTP/1.0\r\nHost: h\r\n\r\n")
        let text = String(
            decoding: UpstreamRequestHead.make(old, client: client.address, tls: tls, body: .relayed(.none), defaultHost: "up"),
            as: UTF8.self)
        #expect(text.hasSuffix("Forwarded: \(client.element);proto=\(proto)\r\nVia: 1.0 partgate\r\n\r\n"))
    }

    /// Failed before: received forwarding values were read as Strings, so obs-text bytes went upstream as U+FFFD.
    @Test func receivedForwardingValuesKeepTheirBytes() throws {
        var parser = RequestHeadParser()
        let text = Array("GET / HTTP/1.1\r\nHost: h\r\nX-Forwarded-For: 10.0.0.1".utf8) + [0xFF] + Array("\r\n\r\n".utf8)
        guard case .complete(let head, _) = text.withUnsafeBytes({ parser.feed($0) }) else { throw ParseFailure() }
        let bytes = UpstreamRequestHead.make(
            head, client: "192.0.2.1", tls: false, body: .relayed(.none), defaultHost: "up")
        let line = Array("X-Forwarded-For: 10.0.0.1".utf8) + [0xFF] + Array(", 192.0.2.1\r\n".utf8)
        #expect(bytes.firstRange(of: line) != nil)
    }

    /// Failed before: a rule's `reject: { status: 401 }` answered `401 Client Error`.
    @Test func everyStatusARuleMayPickHasItsReasonPhrase() {
        #expect(Problem.reason(401) == "Unauthorized")
        #expect(Problem.reason(409) == "Conflict")
        #expect(Problem.reason(429) == "Too Many Requests")
        #expect(Problem.reason(451) == "Unavailable For Legal Reasons")
        let registered = [400, 401, 402, 403, 404, 405, 406, 407, 408, 409, 410, 411, 412, 413, 414, 415, 416, 417,
                          418, 421, 422, 423, 424, 425, 426, 428, 429, 431, 451]
        #expect(registered.filter { Problem.reason($0) == "Client Error" } == [])
        #expect(Problem.reason(499) == "Client Error")
    }
}
