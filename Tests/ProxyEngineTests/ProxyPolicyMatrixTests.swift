import Foundation
import LoopbackTestSupport
import Policy
import ProxyEngine
import Testing

/// Every action at every decision point, in both forwarding modes, through the real engine, with an
/// upstream that records exactly the bytes it received (the engine-level twin of the policy stage's
/// "action × decision point" matrix).
///
/// The part under test (`upload`) sits between two plain fields. Modified parts must arrive as the policy
/// says; stripped ones never arrive; a refused request gets problem+json naming the rule and the part, and
/// the upstream never receives a complete body: in stream mode it got the head (the request was under way)
/// and then saw its connection end with the chunked body unterminated; in spool mode it never saw a
/// connection.
@Suite("Proxy policy: action × decision point × forward mode", .serialized)
struct ProxyPolicyMatrixTests {
    enum Point: String, CaseIterable, Sendable {
        /// Decided from the head: a field-name match.
        case head
        /// Decided when the sniff window fills: a sniffed-type match on a part longer than the window.
        case sniffWindowFull = "sniff-window-full"
        /// Decided at the part's end: a sniffed-type match on a part shorter than the window.
        case sniffPartEnd = "sniff-part-end"
        /// Decided when the part passes max_bytes.
        case size
        /// Decided at the part's end by structure validation.
        case end = "end-by-validation"
    }

    enum Action: String, CaseIterable, Sendable {
        /// Forward with a new name, filename and header (and, where the rule says so, type or length).
        case modify
        case strip
        case reject
    }

    enum Expected {
        /// Forwarded as `upload` renamed to `f1`, with a `{uuid}.png` filename, `X-Checked: yes`, this
        /// Content-Type and these bytes.
        case forwarded(contentType: String, data: [UInt8])
        case stripped
        case rejected(status: Int)
    }

    struct Case: Sendable, CustomStringConvertible {
        var point: Point
        var action: Action
        var description: String { "\(action.rawValue) at \(point.rawValue)" }
    }

    static let cases = Point.allCases.flatMap { point in Action.allCases.map { Case(point: point, action: $0) } }
    static let modes: [RouteConfiguration.ForwardMode] = [.stream, .spool]

    static func glob(_ text: String) -> [Glob] { [try! Glob(text, caseInsensitive: true)] }
    static let rename = Rule.Rename(field: try! NameTemplate("f{index}"), filename: try! NameTemplate("{uuid}{ext}"))
    static let checked = [Rule.HeaderField(name: "X-Checked", value: "yes")]
    static let declared = "application/octet-stream"

    /// The rules, the uploaded bytes and the expected outcome of a case (as in PolicyStageMatrixTests).
    static func scenario(_ testCase: Case) -> ([Rule], [UInt8], Expected) {
        let small = MatrixFiles.smallPNG
        let large = MatrixFiles.largePNG
        let upload = RuleMatch(field: glob("upload"))
        func byMatch(_ match: RuleMatch, _ data: [UInt8]) -> ([Rule], [UInt8], Expected) {
            switch testCase.action {
            case .modify:
                return ([Rule(name: "t", match: match, rename: rename, setHeaders: checked)], data,
                        .forwarded(contentType: declared, data: data))
            case .strip:
                return ([Rule(name: "t", match: match, strip: true)], data, .stripped)
            case .reject:
                return ([Rule(name: "t", match: match, reject: Rule.Reject(status: 422))], data, .rejected(status: 422))
            }
        }
        switch testCase.point {
        case .head:
            return byMatch(upload, large)
        case .sniffWindowFull:
            return byMatch(RuleMatch(sniffedType: glob("image/png")), large)
        case .sniffPartEnd:
            return byMatch(RuleMatch(sniffedType: glob("image/png")), small)
        case .size:
            switch testCase.action {
            case .modify:
                let rule = Rule(name: "t", match: upload, rename: rename, setHeaders: checked, maxBytes: 1000,
                                onExceed: .truncate)
                return ([rule], large, .forwarded(contentType: declared, data: Array(large[0..<1000])))
            case .strip:
                return ([Rule(name: "t", match: upload, maxBytes: 1000, onExceed: .strip)], large, .stripped)
            case .reject:
                return ([Rule(name: "t", match: upload, maxBytes: 1000, onExceed: .reject)], large,
                        .rejected(status: 413))
            }
        case .end:
            switch testCase.action {
            case .modify:
                let sniff = SniffRule(allow: glob("image/png"), setContentType: true, validate: true)
                return ([Rule(name: "t", match: upload, rename: rename, setHeaders: checked, sniff: sniff)], small,
                        .forwarded(contentType: "image/png", data: small))
            case .strip:
                let sniff = SniffRule(onMismatch: .strip, validate: true)
                return ([Rule(name: "t", match: upload, sniff: sniff)], MatrixFiles.polyglot, .stripped)
            case .reject:
                return ([Rule(name: "t", match: upload, sniff: SniffRule(validate: true))], MatrixFiles.polyglot,
                        .rejected(status: 415))
            }
        }
    }

    /// A proxy with one route (the plain fields pass by a rule of their own) in front of a recording upstream.
    final class Rig {
        let upstream: RecordingUpstream
        let proxy: ProxyServer
        let port: UInt16
        let mode: RouteConfiguration.ForwardMode

        init(_ mode: RouteConfiguration.ForwardMode, rules: [Rule]) throws {
            self.mode = mode
            upstream = try RecordingUpstream()
            let plain = Rule(name: "plain", match: RuleMatch(field: [try Glob("before"), try Glob("after")]))
            let route = RouteConfiguration(name: "matrix", upstream: "up", forward: mode, rules: [plain] + rules)
            let settings = EngineSettings(
                listeners: [ListenerSettings(address: SocketAddress("127.0.0.1:0")!)],
                upstreams: ["up": UpstreamSettings(
                    name: "up", address: SocketAddress("127.0.0.1:\(upstream.port)")!, serverName: "localhost",
                    tls: nil)],
                routes: [route])
            proxy = ProxyServer(settings: settings)
            port = try proxy.start()[0].port
        }

        func stop() {
            proxy.stop()
            proxy.wait()
            upstream.stop()
        }

        /// Sends the head and the first field, then (in stream mode, once the upstream has the request head)
        /// the rest; returns the response.
        func send(_ parts: [(name: String, filename: String?, type: String?, data: [UInt8])], path: String = "/upload")
            -> TestHTTPClient.Response?
        {
            let boundary = "matrix-b0undary"
            let body = ProxyHarness.multipart(boundary, parts)
            let request = ProxyHarness.request(body, boundary: boundary, path: path)
            guard let client = try? TestHTTPClient(port: port) else { return nil }
            let secondPart = Array(
                "\r\n--\(boundary)\r\nContent-Disposition: form-data; name=\"\(parts[1].name)\"".utf8)
            let split = ChunkedBody.find(secondPart, in: request, from: 0) ?? request.count
            client.send(Array(request[..<split]))
            if mode == .stream {
                // The request is under way upstream before the rest is even sent.
                _ = upstream.wait(seconds: 5) { $0.last?.head.isEmpty == false }
            }
            client.send(Array(request[split...]))
            return client.readResponse()
        }
    }

    static func parts(_ data: [UInt8]) -> [(name: String, filename: String?, type: String?, data: [UInt8])] {
        [
            (name: "before", filename: nil, type: nil, data: Array("1".utf8)),
            (name: "upload", filename: "photo.png", type: declared, data: data),
            (name: "after", filename: nil, type: nil, data: Array("2".utf8)),
        ]
    }

    /// The single complete upstream request of a forwarded request, framed as the mode says, read back.
    static func forwardedForm(_ rig: Rig, sourceLocation: SourceLocation = #_sourceLocation) throws -> CanonicalForm {
        #expect(rig.upstream.wait { $0.count == 1 && $0[0].ended }, sourceLocation: sourceLocation)
        let connections = rig.upstream.connections
        #expect(connections.count == 1, sourceLocation: sourceLocation)
        let connection = try #require(connections.first, sourceLocation: sourceLocation)
        #expect(connection.complete, sourceLocation: sourceLocation)
        if rig.mode == .stream {
            #expect(connection.field("transfer-encoding") == "chunked", sourceLocation: sourceLocation)
            #expect(connection.field("content-length") == nil, sourceLocation: sourceLocation)
        } else {
            #expect(connection.field("transfer-encoding") == nil, sourceLocation: sourceLocation)
            #expect(connection.field("content-length") == String(connection.body.count), sourceLocation: sourceLocation)
        }
        let body = try #require(connection.decodedBody, sourceLocation: sourceLocation)
        return try #require(CanonicalForm(body, contentType: connection.field("content-type")),
                            sourceLocation: sourceLocation)
    }

    /// A refused request: the answer names the rule and the part; the upstream never got a complete body.
    static func expectRefused(
        _ rig: Rig, _ response: TestHTTPClient.Response?, status: Int, rule: String, part: Int,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(response?.status == status, sourceLocation: sourceLocation)
        #expect(response?.header("content-type") == "application/problem+json", sourceLocation: sourceLocation)
        #expect(response?.json?["flag"] as? String == rule, sourceLocation: sourceLocation)
        #expect(response?.json?["part"] as? Int == part, sourceLocation: sourceLocation)
        if rig.mode == .stream {
            // The request was under way: the upstream has its head (and whatever part of the body had passed),
            // and its connection ends without the last chunk.
            #expect(rig.upstream.wait { $0.count == 1 && $0[0].ended }, sourceLocation: sourceLocation)
            let connection = rig.upstream.connections.first
            #expect(connection?.head.hasPrefix("POST /upload ") == true, sourceLocation: sourceLocation)
            #expect(connection?.field("transfer-encoding") == "chunked", sourceLocation: sourceLocation)
            #expect(connection?.complete == false, sourceLocation: sourceLocation)
            let sent = connection.flatMap { ChunkedBody.decode($0.body) }
            #expect(sent?.complete == false, sourceLocation: sourceLocation)
        } else {
            // Nothing reached the upstream, not even a connection: a good request afterwards is the first
            // (and only) one it sees.
            let good = rig.send([
                (name: "before", filename: nil, type: nil, data: Array("1".utf8)),
                (name: "after", filename: nil, type: nil, data: Array("2".utf8)),
            ], path: "/good")
            #expect(good?.status == 200, sourceLocation: sourceLocation)
            #expect(rig.upstream.wait { $0.first?.ended == true }, sourceLocation: sourceLocation)
            let connections = rig.upstream.connections
            #expect(connections.count == 1, sourceLocation: sourceLocation)
            #expect(connections.first?.head.hasPrefix("POST /good ") == true, sourceLocation: sourceLocation)
        }
    }

    @Test(arguments: cases, modes)
    func actionAtDecisionPoint(testCase: Case, mode: RouteConfiguration.ForwardMode) throws {
        let (rules, data, expected) = Self.scenario(testCase)
        let rig = try Rig(mode, rules: rules)
        defer { rig.stop() }
        let response = rig.send(Self.parts(data))
        switch expected {
        case .forwarded(let contentType, let bytes):
            #expect(response?.status == 200)
            let form = try Self.forwardedForm(rig)
            #expect(form.parts.map(\.name) == ["before", "f1", "after"])
            #expect(form.parts.first?.data == Array("1".utf8) && form.parts.last?.data == Array("2".utf8))
            let part = try #require(form.parts.count == 3 ? form.parts[1] : nil)
            let filename = try #require(part.filename)
            #expect(filename.hasSuffix(".png") && filename.count == 36 + 4 && filename != "photo.png")
            #expect(part.headers == ["Content-Type: \(contentType)", "X-Checked: yes"])
            #expect(part.data == bytes)
        case .stripped:
            #expect(response?.status == 200)
            let form = try Self.forwardedForm(rig)
            #expect(form.parts.map(\.name) == ["before", "after"])
            #expect(form.parts.map(\.data) == [Array("1".utf8), Array("2".utf8)])
        case .rejected(let status):
            Self.expectRefused(rig, response, status: status, rule: "t", part: 1)
        }
    }

    @Test(arguments: modes)
    func sniffMismatchStripsTheDisguisedFile(mode: RouteConfiguration.ForwardMode) throws {
        let sniff = SniffRule(allow: Self.glob("image/png"), onMismatch: .strip, setContentType: true)
        let rule = Rule(name: "images", match: RuleMatch(field: Self.glob("upload")), sniff: sniff)
        let rig = try Rig(mode, rules: [rule])
        defer { rig.stop() }
        // A PE executable named .png is dropped; a real PNG in the same request is forwarded and re-typed.
        let response = rig.send([
            (name: "before", filename: nil, type: nil, data: Array("1".utf8)),
            (name: "upload", filename: "tool.png", type: "image/png", data: MatrixFiles.pe),
            (name: "upload", filename: "photo.png", type: Self.declared, data: MatrixFiles.largePNG),
            (name: "after", filename: nil, type: nil, data: Array("2".utf8)),
        ])
        #expect(response?.status == 200)
        let form = try Self.forwardedForm(rig)
        #expect(form.parts.map(\.name) == ["before", "upload", "after"])
        #expect(form.parts.count == 3 && form.parts[1].filename == "photo.png")
        #expect(form.parts.count == 3 && form.parts[1].contentType == "image/png")
        #expect(form.parts.count == 3 && form.parts[1].data == MatrixFiles.largePNG)
    }

    @Test(arguments: modes)
    func onExceedTruncateForwardsTheFirstBytes(mode: RouteConfiguration.ForwardMode) throws {
        // A streamed (not held) part cut at 4000 bytes: the cap is above the sniff window.
        let data = MatrixFiles.filler(50_000)
        let rule = Rule(name: "cap", match: RuleMatch(field: Self.glob("upload")), maxBytes: 4000, onExceed: .truncate)
        let rig = try Rig(mode, rules: [rule])
        defer { rig.stop() }
        let response = rig.send(Self.parts(data))
        #expect(response?.status == 200)
        let form = try Self.forwardedForm(rig)
        #expect(form.parts.map(\.name) == ["before", "upload", "after"])
        #expect(form.parts.count == 3 && form.parts[1].data == Array(data[0..<4000]))
        #expect(form.parts.count == 3 && form.parts[1].headers == ["Content-Type: \(Self.declared)"])
    }
}
