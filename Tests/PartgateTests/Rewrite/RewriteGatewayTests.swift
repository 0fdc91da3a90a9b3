import Foundation
import Testing

/// `partgate rewrite` with conf/gateway.yaml: byte-exact output, both framings, chunked input, passthrough
/// bodies and framing errors.
@Suite("partgate rewrite: conf/gateway.yaml")
struct RewriteGatewayTests {
    static let config = "gateway.yaml"

    static let parts = [
        FormPart("title", "holiday"),
        FormPart("internal_token", "secret"),
        FormPart("internal_debug", "1"),
        FormPart("file", filename: "../../x.txt", type: "text/plain", Array("hello\n".utf8)),
    ]

    /// What the upstream gets for ``parts``: the internal_* fields stripped, the filename sanitised, the
    /// body in canonical form with the given boundary.
    static let goldenBody =
        "--golden\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nholiday\r\n"
        + "--golden\r\nContent-Disposition: form-data; name=\"file\"; filename=\"x.txt\"\r\n"
        + "Content-Type: text/plain\r\n\r\nhello\n\r\n--golden--\r\n"

    static let goldenHead =
        "POST /upload HTTP/1.1\r\nHost: uploads.example\r\nX-Forwarded-For: 203.0.113.7, 127.0.0.1\r\n"
        + "X-Forwarded-Proto: http\r\nForwarded: for=\"_edge\", for=127.0.0.1;proto=http\r\n"
        + "Via: 1.0 edge, 1.1 partgate\r\n"
        + "Content-Type: multipart/form-data; boundary=golden\r\n"

    static func upload(chunkSize: Int? = nil) -> [UInt8] {
        RawRequest.form(
            "/upload", parts, chunkSize: chunkSize,
            fields: [
                "X-Forwarded-For: 203.0.113.7", "Forwarded: for=\"_edge\"", "Via: 1.0 edge",
                "Connection: keep-alive, X-Trace", "X-Trace: 1",
            ])
    }

    @Test func printsTheSpooledFormByteForByte() throws {
        let result = try RawRequest.rewrite(
            Self.upload(), config: Self.config, ["--boundary", "golden", "--framing", "content-length"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(Self.goldenBody.utf8.count == 188)
        let expected = Self.goldenHead + "Content-Length: 188\r\n\r\n" + Self.goldenBody
        #expect(result.stdout == expected)
        #expect(result.stderr.isEmpty)  // no audit: the route does not ask for it
    }

    /// A stream route sends a small Content-Length body whole, with its length (`buffer_small_bodies`), as it
    /// does when the body arrived with its head, which a captured request's did.
    @Test func framesASmallBodyWithItsLengthByDefault() throws {
        let result = try RawRequest.rewrite(Self.upload(), config: Self.config, ["--boundary", "golden"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stdout == Self.goldenHead + "Content-Length: 188\r\n\r\n" + Self.goldenBody)
    }

    /// Under `unsafe_filenames: sanitize`, a browser-escaped quote (`%22`) in a filename is replaced, not refused
    /// (DESIGN.md, Canonical output): Werkzeug would decode it, python-multipart would not.
    @Test func sanitisesABrowserEscapedQuoteInAFilename() throws {
        let parts = [FormPart("file", filename: "say %22hi%22.txt", type: "text/plain", Array("hi\n".utf8))]
        let result = try RawRequest.rewrite(RawRequest.form("/upload", parts), config: Self.config)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let forwarded = try PrintedMessage(result.stdoutBytes).parts()
        #expect(forwarded.map(\.filename) == ["say _22hi_22.txt"])
    }

    @Test func streamsTheSameBodyChunked() throws {
        let result = try RawRequest.rewrite(
            Self.upload(), config: Self.config, ["--boundary", "golden", "--framing", "chunked"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stdout.hasPrefix(Self.goldenHead + "Transfer-Encoding: chunked\r\n\r\n"))
        let upstream = try PrintedMessage(result.stdoutBytes)
        #expect(upstream.body == Array(Self.goldenBody.utf8))
        // One chunk per read of the file, as the engine writes one per network read; then the close delimiter.
        #expect(upstream.chunkSizes == [188 - 14, 14, 0])
    }

    @Test func rewritesAChunkedRequest() throws {
        let result = try RawRequest.rewrite(Self.upload(chunkSize: 5), config: Self.config, ["--boundary", "golden"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let upstream = try PrintedMessage(result.stdoutBytes)
        #expect(upstream.head == Array((Self.goldenHead + "Transfer-Encoding: chunked\r\n\r\n").utf8))
        #expect(upstream.body == Array(Self.goldenBody.utf8))
    }

    @Test func relaysAJSONBodyUnchanged() throws {
        let json = Array("{\"name\":\"../../x\",\"internal_token\":1}".utf8)
        let request = RawRequest.post(
            "/api/items?x=1", contentType: "application/json", body: json,
            fields: ["Expect: 100-continue", "Connection: X-Trace", "X-Trace: 1", "X-Forwarded-Proto: https"])
        let result = try RawRequest.rewrite(request, config: Self.config, ["--client", "::1"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let expected =
            "POST /api/items?x=1 HTTP/1.1\r\nHost: uploads.example\r\nContent-Type: application/json\r\n"
            + "X-Forwarded-For: ::1\r\nX-Forwarded-Proto: http\r\nForwarded: for=\"[::1]\";proto=http\r\n"
            + "Via: 1.1 partgate\r\n"
            + "Content-Length: \(json.count)\r\n\r\n"
        #expect(result.stdoutBytes == Array(expected.utf8) + json)
    }

    @Test func rechunksAChunkedJSONBody() throws {
        let json = Array("{\"items\":[1,2,3]}".utf8)
        let request = RawRequest.post("/api", contentType: "application/json", body: json, chunkSize: 4)
        let result = try RawRequest.rewrite(request, config: Self.config, ["--framing", "content-length"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let upstream = try PrintedMessage(result.stdoutBytes)
        #expect(upstream.field("transfer-encoding") == "chunked")  // --framing is for re-encoded bodies only
        #expect(upstream.field("content-length") == nil)
        #expect(upstream.body == json)
        #expect(upstream.chunkSizes == [4, 4, 4, 4, 1, 0])  // one chunk per chunk received, as the engine relays
    }

    @Test func answersAFramingErrorWithTheProxysProblem() throws {
        let request = Array(
            "POST /upload HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=b\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n"
                .utf8)
        let result = try RawRequest.rewrite(request, config: Self.config)
        #expect(result.status == 3)
        let body =
            "{\"type\":\"about:blank\",\"title\":\"Bad Request\",\"status\":400,\"flag\":\"content_length_with_transfer_encoding\"}\n"
        // The answer is dated when it is made (RFC 9110 §6.6.1), as the engine's is.
        let date = try #require(result.stdout.range(of: #"Date: [A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT\r\n"#, options: .regularExpression))
        var undated = result.stdout
        undated.removeSubrange(date)
        #expect(
            undated == "HTTP/1.1 400 Bad Request\r\nContent-Type: application/problem+json\r\n"
                + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n" + body)
    }

    @Test func answersABadChunkInsideTheBody() throws {
        var request = RawRequest.form("/upload", Self.parts, chunkSize: 16)
        let firstChunk = try #require(request.firstRange(of: Array("10\r\n".utf8)))
        request.replaceSubrange(firstChunk.lowerBound..<(firstChunk.lowerBound + 2), with: Array("zz".utf8))
        let result = try RawRequest.rewrite(request, config: Self.config)
        #expect(result.status == 3)
        let answer = try PrintedMessage(result.stdoutBytes)
        #expect(answer.status == 400)
        #expect(answer.json?["flag"] as? String == "invalid_chunk_size")
    }
}
