import Foundation
import LoopbackTestSupport
import Testing

/// `partgate rewrite` prints what `partgate serve` sends: the same request through a running proxy (to a raw
/// upstream that records the bytes) and through `rewrite` with the proxy's boundary, head and body compared
/// byte for byte (chunk sizes aside: the proxy's follow its network reads).
@Suite("partgate rewrite matches partgate serve", .serialized)
struct RewriteMatchesProxyTests {
    static func config(upstreamPort: UInt16, forward: String = "stream") -> String {
        """
        version: 1
        workers: 1
        listeners: [{ address: 127.0.0.1:0 }]
        upstreams: { raw: { url: "http://127.0.0.1:\(upstreamPort)" } }
        routes:
          - name: uploads
            match: { path_prefix: /upload }
            upstream: raw
            forward: \(forward)
            rules:
              - { name: no-executables, match: { sniffed_type: application/x-msdownload }, reject: { status: 415 } }
              - { name: drop-internal, match: { field: "internal_*" }, strip: true }
              - { name: files, match: { has_filename: true }, sniff: { set_content_type: true } }
          - name: other
            upstream: raw
            forward: \(forward)
        """
    }

    static let form = [
        FormPart("title", "holiday"),
        FormPart("internal_token", "secret"),
        FormPart("photo", filename: "../../me.png", type: "application/octet-stream", UploadFixtures.png),
    ]

    static let fields = ["X-Forwarded-For: 203.0.113.7", "Via: 1.0 edge", "Connection: X-Trace", "X-Trace: 1"]

    static let requests = [
        RawRequest.form("/upload", form, fields: fields),
        RawRequest.form("/upload?x=1", form, chunkSize: 7),
        RawRequest.post("/api", contentType: "application/json", body: Array("{\"a\":[1,2]}".utf8), fields: fields),
        RawRequest.post("/api", contentType: "application/json", body: Array("{\"a\":[1,2]}".utf8), chunkSize: 3),
    ]

    /// Both forwarding modes: `stream` (re-encoded bodies chunked, relayed ones as framed) and `spool` (every
    /// body with its exact Content-Length).
    @Test(arguments: ["stream", "spool"], requests)
    func forwardedRequestsAreIdentical(forward: String, request: [UInt8]) throws {
        try Self.throughServe(request, forward: forward) { config, proxied in
            try Self.expectRewritePrints(proxied, for: request, config: config, forward: forward)
        }
    }

    /// Sends `request` through `partgate serve` (the test configuration, `forward` mode) to a capturing upstream
    /// and runs `body` with the configuration's path and what the upstream received.
    static func throughServe(
        _ request: [UInt8], forward: String, _ body: (String, PrintedMessage) throws -> Void
    ) throws {
        let upstream = try UpstreamCapture()
        defer { upstream.stop() }
        let workspace = try ConfigWorkspace()
        defer { workspace.remove() }
        let config = try workspace.write(Self.config(upstreamPort: upstream.port, forward: forward),
                                         to: "partgate.yaml")
        let server = try ServeProcess(configPath: config)
        defer { server.kill() }
        let port = try #require(server.listeningPorts(count: 1).first)
        let client = try TestHTTPClient(port: port)
        client.send(request)
        #expect(client.readResponse()?.status == 200)
        server.expectCleanStop()
        try body(config, try PrintedMessage(try #require(upstream.received.first)))
    }

    static func expectRewritePrints(_ proxied: PrintedMessage, for request: [UInt8], config: String, forward: String)
        throws
    {
        var arguments: [String] = []
        if let boundary = proxied.boundary { arguments = ["--boundary", boundary] }
        let file = try RawRequest.file(request)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try PartgateBinary.run(["rewrite", "--config", config, "--request", file.path] + arguments)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let printed = try PrintedMessage(result.stdoutBytes)
        #expect(String(decoding: printed.head, as: UTF8.self) == String(decoding: proxied.head, as: UTF8.self))
        #expect(printed.body == proxied.body)
        #expect(printed.body.count > 0)
        if forward == "spool" {
            #expect(printed.field("content-length") == String(printed.body.count))
            #expect(printed.field("transfer-encoding") == nil)
        }
    }

    /// A request without a body goes at once on both forwarding modes: no spool, no Content-Length added.
    @Test(arguments: ["stream", "spool"])
    func bodilessRequestsAreIdentical(forward: String) throws {
        let request = Array("GET /api/items?page=2 HTTP/1.1\r\nHost: example.test\r\n\r\n".utf8)
        try Self.throughServe(request, forward: forward) { config, proxied in
            let result = try RawRequest.rewrite(request, config: config)
            #expect(result.status == 0, "stderr: \(result.stderr)")
            let printed = try PrintedMessage(result.stdoutBytes)
            #expect(String(decoding: printed.head, as: UTF8.self) == String(decoding: proxied.head, as: UTF8.self))
            #expect(printed.field("content-length") == nil && printed.body.isEmpty)
        }
    }

    @Test func refusalsAreIdentical() throws {
        let upstream = try UpstreamCapture()
        defer { upstream.stop() }
        let workspace = try ConfigWorkspace()
        defer { workspace.remove() }
        let config = try workspace.write(Self.config(upstreamPort: upstream.port), to: "partgate.yaml")
        let server = try ServeProcess(configPath: config)
        defer { server.kill() }
        let port = try #require(server.listeningPorts(count: 1).first)
        let request = RawRequest.form("/upload", [FormPart("doc", filename: "a.pdf", UploadFixtures.pe)])
        let client = try TestHTTPClient(port: port)
        client.send(request)
        let answer = try #require(client.readResponse())
        server.expectCleanStop()

        let result = try RawRequest.rewrite(request, config: config)
        #expect(result.status == 3)
        let printed = try PrintedMessage(result.stdoutBytes)
        #expect(printed.status == answer.status)
        #expect(printed.body == answer.body)
        #expect(printed.fields.map(\.name) == answer.headers.map(\.0))
    }
}
