import Foundation
import LoopbackTestSupport
import ProxyEngine
import Testing

/// curl uploads through the real `partgate serve` to a TLS echo upstream verified with a CA made for the run.
@Suite("serve: uploads through the binary", .serialized)
struct ServeUploadTests {
    /// 1.5 MiB of non-repeating bytes: over the size from which curl 7.88 sends `Expect: 100-continue` with a
    /// form of known length (1 MiB; a chunked form always gets it).
    static let fileBytes: [UInt8] = (0..<(1536 * 1024)).map { UInt8(truncatingIfNeeded: ($0 &* 2_654_435_761) >> 13) }

    /// The echo's description of one part, from the JSON relayed to curl.
    struct Part: Equatable {
        var name: String
        var filename: String?
        var size: Int
        var sha256: String

        init(_ name: String, filename: String? = nil, _ bytes: [UInt8]) throws {
            self.name = name
            self.filename = filename
            size = bytes.count
            sha256 = try PartgateBinary.sha256(bytes)
        }

        init?(json: [String: Any]) {
            guard let name = json["name"] as? String, let size = json["size"] as? Int, let sha = json["sha256"] as? String
            else { return nil }
            self.name = name
            filename = json["filename"] as? String
            self.size = size
            sha256 = sha
        }
    }

    static func parts(_ reply: [String: Any]?) -> [Part] {
        ((reply?["parts"] as? [[String: Any]]) ?? []).compactMap(Part.init(json:))
    }

    /// The forwarding fields every upstream request carries, and what must never reach it.
    static func expectForwarded(_ record: EchoRecord, proto: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(record.field("x-forwarded-for") == "127.0.0.1", sourceLocation: sourceLocation)
        #expect(record.field("x-forwarded-proto") == proto, sourceLocation: sourceLocation)
        #expect(record.field("via") == "1.1 partgate", sourceLocation: sourceLocation)
        #expect(record.field("expect") == nil, sourceLocation: sourceLocation)
        #expect(record.field("transfer-encoding") == "chunked", sourceLocation: sourceLocation)
        #expect(record.field("content-length") == nil, sourceLocation: sourceLocation)
        #expect(record.field("content-type") == "multipart/form-data; boundary=\(record.boundary ?? "?")",
                sourceLocation: sourceLocation)
        #expect(record.error == nil, sourceLocation: sourceLocation)
    }

    @Test func checkAcceptsTheConfigurationServeRuns() throws {
        let fixture = try ServeFixture()
        defer { fixture.remove() }
        let config = try fixture.write(
            Array(ServeFixture.config(upstream: fixture.echoUpstream(), tlsListener: true).utf8), to: "partgate.yaml")
        let check = try PartgateBinary.run(["check", "--config", config])
        #expect(check.status == 0)
        #expect(check.stdout == "\(config): ok\n2 listeners, 1 upstream, 1 route, 0 rules\n")
        let serve = try ServeProcess(configPath: config)
        defer { serve.kill() }
        #expect(serve.listeningPorts(count: 2).count == 2)
        let listening = serve.logLines.filter { $0["msg"] as? String == "listening" }
        #expect(listening.map { $0["tls"] as? String } == ["false", "true"])
        serve.expectCleanStop()
    }

    @Test func curlFileUploadWithExpectContinueIsReencoded() throws {
        let fixture = try ServeFixture()
        defer { fixture.remove() }
        let (serve, ports) = try fixture.serve(ServeFixture.config(upstream: fixture.echoUpstream()))
        defer { serve.kill() }
        let file = try fixture.write(Self.fileBytes, to: "upload.bin")
        let curl = try Curl.run([
            "-v", "-F", "title=hello", "-F", "file=@\(file);type=application/octet-stream",
            "http://127.0.0.1:\(ports[0])/upload",
        ])
        #expect(curl.status == 0, "\(curl.stderr)")
        // curl asked, and partgate answered the interim response itself.
        #expect(curl.stderr.contains("> Expect: 100-continue"))
        #expect(curl.stderr.contains("< HTTP/1.1 100 Continue"))
        let reply = ServeProcess.json(curl.stdout)
        #expect(Self.parts(reply) == [try Part("title", Array("hello".utf8)), try Part("file", filename: "upload.bin", Self.fileBytes)])
        let boundary = try #require(reply?["boundary"] as? String)
        #expect(boundary.hasPrefix("partgate-"))
        #expect(!curl.stderr.contains(boundary), "the client never sees partgate's boundary")
        let record = try #require(fixture.recorder.records.first)
        #expect(record.boundary == boundary)
        #expect(record.method == "POST" && record.target == "/upload")
        Self.expectForwarded(record, proto: "http")
        #expect(serve.logLines.contains { $0["msg"] as? String == "access" && $0["status"] as? Int == 200 })
        serve.expectCleanStop()
    }

    @Test func curlChunkedUploadWithFormStringIsReencoded() throws {
        let fixture = try ServeFixture()
        defer { fixture.remove() }
        let (serve, ports) = try fixture.serve(ServeFixture.config(upstream: fixture.echoUpstream()))
        defer { serve.kill() }
        let file = try fixture.write(Self.fileBytes, to: "data.bin")
        let curl = try Curl.run([
            "-v", "-H", "Transfer-Encoding: chunked", "--form-string", "note=@not-a-file;type=text/x",
            "-F", "file=@\(file)", "http://127.0.0.1:\(ports[0])/chunked",
        ])
        #expect(curl.status == 0, "\(curl.stderr)")
        #expect(curl.stderr.contains("> Transfer-Encoding: chunked"))
        #expect(curl.stderr.contains("> Expect: 100-continue"))
        #expect(curl.stderr.contains("< HTTP/1.1 100 Continue"))
        let reply = ServeProcess.json(curl.stdout)
        #expect(Self.parts(reply) == [
            try Part("note", Array("@not-a-file;type=text/x".utf8)), try Part("file", filename: "data.bin", Self.fileBytes),
        ])
        let record = try #require(fixture.recorder.records.first)
        #expect(record.boundary?.hasPrefix("partgate-") == true)
        Self.expectForwarded(record, proto: "http")
        serve.expectCleanStop()
    }

    @Test func tlsListenerServesHTTPSWithTLS12OrNewerOnly() throws {
        let fixture = try ServeFixture()
        defer { fixture.remove() }
        let (serve, ports) = try fixture.serve(
            ServeFixture.config(upstream: fixture.echoUpstream(), tlsListener: true), listeners: 2)
        defer { serve.kill() }
        let url = "https://localhost:\(ports[1])/secure"
        let tls = ["--cacert", fixture.path("tls/ca.pem"), "--resolve", "localhost:\(ports[1]):127.0.0.1"]
        let upload = try Curl.run(tls + ["-v", "-F", "title=hello", url])
        #expect(upload.status == 0, "\(upload.stderr)")
        #expect(upload.stderr.contains("SSL connection using TLSv1.3"))
        #expect(upload.stderr.contains("ALPN: server accepted http/1.1"))
        #expect(Self.parts(ServeProcess.json(upload.stdout)) == [try Part("title", Array("hello".utf8))])
        let record = try #require(fixture.recorder.records.first)
        Self.expectForwarded(record, proto: "https")

        let tls12 = try Curl.run(tls + ["-v", "--tlsv1.2", "--tls-max", "1.2", "-F", "title=hello", url])
        #expect(tls12.status == 0, "\(tls12.stderr)")
        #expect(tls12.stderr.contains("SSL connection using TLSv1.2"))

        // SECLEVEL=0 lets this OpenSSL 3 client offer TLS 1.1 at all; the refusal must come from partgate.
        let tls11 = try Curl.run(tls + ["--tls-max", "1.1", "--ciphers", "DEFAULT:@SECLEVEL=0", url])
        #expect(tls11.status == 35)
        #expect(tls11.stderr.contains("alert protocol version"), "\(tls11.stderr)")
        #expect(fixture.recorder.records.count == 2)
        serve.expectCleanStop()
    }

    @Test func malformedMultipartIsRefusedNamingTheFlagAndClosed() throws {
        let fixture = try ServeFixture()
        defer { fixture.remove() }
        let (serve, ports) = try fixture.serve(ServeFixture.config(upstream: fixture.echoUpstream()))
        defer { serve.kill() }
        let body = "--b\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nv\r\n--bX\r\n"  // garbage after a delimiter
        let client = try TestHTTPClient(port: ports[0], timeout: 10)
        client.send("POST /upload HTTP/1.1\r\nHost: a\r\nContent-Type: multipart/form-data; boundary=b\r\n"
                    + "Content-Length: \(body.utf8.count)\r\n\r\n\(body)")
        let response = try #require(client.readResponse())
        #expect(response.status == 400)
        #expect(response.header("content-type") == "application/problem+json")
        #expect(response.json?["flag"] as? String == "delimiter_garbage")
        #expect(client.isClosedByPeer())
        #expect(serve.waitForLog("refused")?["flag"] as? String == "delimiter_garbage")
        #expect(fixture.recorder.records.isEmpty)
        serve.expectCleanStop()
    }
}
