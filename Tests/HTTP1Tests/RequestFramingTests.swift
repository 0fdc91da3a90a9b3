import Testing

@testable import HTTP1

@Suite struct RequestFramingTests {
    /// Parses a POST head with these extra field lines, then analyses it; errors from either step.
    private func framing(_ fields: String, version: String = "HTTP/1.1") -> Result<RequestFraming, HTTP1Error> {
        let text = "POST /upload \(version)\r\nHost: example.com\r\n\(fields)\r\n"
        switch HeadFeeding.request([Array(text.utf8)]) {
        case .complete(let head, _):
            return Result { () throws(HTTP1Error) in try RequestFraming(analyzing: head) }
        case .error(let error):
            return .failure(error)
        case .needMore:
            preconditionFailure("fixture is not a complete head: \(text)")
        }
    }

    private func code(_ fields: String, version: String = "HTTP/1.1") -> HTTP1Error.Code? {
        if case .failure(let error) = framing(fields, version: version) {
            return error.code
        }
        return nil
    }

    private func body(_ fields: String, version: String = "HTTP/1.1") -> BodyFraming? {
        try? framing(fields, version: version).get().body
    }

    @Test func bodyFraming() {
        #expect(body("") == BodyFraming.none)
        #expect(body("Content-Length: 0\r\n") == .contentLength(0))
        #expect(body("Content-Length: 42\r\n") == .contentLength(42))
        #expect(body("Content-Length: 0042\r\n") == .contentLength(42))
        #expect(body("Content-Length: 9223372036854775807\r\n") == .contentLength(UInt64(Int64.max)))
        #expect(body("Transfer-Encoding: chunked\r\n") == .chunked)
        #expect(body("Transfer-Encoding: Chunked\r\n") == .chunked)
        #expect(body("transfer-encoding:  CHUNKED \r\n") == .chunked)
    }

    @Test(arguments: [
        ("Content-Length: 5\r\nTransfer-Encoding: chunked\r\n", HTTP1Error.Code.contentLengthWithTransferEncoding),
        ("Transfer-Encoding: chunked\r\nContent-Length: 5\r\n", .contentLengthWithTransferEncoding),
        ("Transfer-Encoding: identity\r\nContent-Length: 5\r\n", .contentLengthWithTransferEncoding),
        ("Content-Length: 9223372036854775808\r\n", .contentLengthOverflow),
        ("Transfer-Encoding: gzip, chunked\r\n", .unsupportedTransferCoding),
        ("Transfer-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n", .unsupportedTransferCoding),
        ("Transfer-Encoding: identity\r\n", .unsupportedTransferCoding),
        ("Transfer-Encoding: gzip;p=\"a,b\", chunked\r\n", .unsupportedTransferCoding),  // one coding, then chunked
        ("Transfer-Encoding: gzip;p=\"a, chunked\r\n", .invalidTransferEncoding),
        ("Transfer-Encoding: chunkedchunked\r\n", .unsupportedTransferCoding),
        ("Transfer-Encoding: chunked, gzip\r\n", .invalidTransferEncoding),
        ("Transfer-Encoding: chunked\r\nTransfer-Encoding: gzip\r\n", .invalidTransferEncoding),
        ("Transfer-Encoding: chunked, chunked\r\n", .invalidTransferEncoding),
        ("Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n", .invalidTransferEncoding),
        ("Transfer-Encoding: chunked;q=1\r\n", .invalidTransferEncoding),
        ("Transfer-Encoding: ,chunked\r\n", .invalidTransferEncoding),
        ("Transfer-Encoding: chunked,\r\n", .invalidTransferEncoding),
        ("Transfer-Encoding:\r\n", .invalidTransferEncoding),
        ("Transfer-Encoding: \"chunked\"\r\n", .invalidTransferEncoding),
        ("Transfer-Encoding: chu nked\r\n", .invalidTransferEncoding),
        ("Connection: close, a/b\r\n", .invalidConnection),
        ("Connection: Content-Length\r\n", .connectionNamesProtectedField),
        ("Connection: keep-alive, host\r\n", .connectionNamesProtectedField),
        ("Connection: content-type\r\n", .connectionNamesProtectedField),
        ("Expect: 100-continue, x-other\r\n", .unknownExpectation),
        ("Expect: 200-ok\r\n", .unknownExpectation),
    ])
    func rejects(fields: String, code expected: HTTP1Error.Code) {
        #expect(code(fields) == expected)
    }

    @Test func statusesOfFramingErrors() {
        #expect(HTTP1Error.Code.unsupportedTransferCoding.suggestedStatus == 501)
        #expect(HTTP1Error.Code.unknownExpectation.suggestedStatus == 417)
        #expect(HTTP1Error.Code.contentLengthWithTransferEncoding.suggestedStatus == 400)
        #expect(HTTP1Error.Code.unsupportedVersion.suggestedStatus == 505)
    }

    @Test func transferEncodingInHTTP10IsRefusedEvenWithoutContentLength() {
        #expect(code("Transfer-Encoding: chunked\r\n", version: "HTTP/1.0") == .transferEncodingInHTTP10)
        #expect(
            code("Transfer-Encoding: chunked\r\nContent-Length: 3\r\n", version: "HTTP/1.0")
                == .transferEncodingInHTTP10
        )
    }

    @Test func duplicateContentLengthIsRefusedByTheAnalysisToo() {
        var built = RequestHead(method: "POST", target: try! RequestTarget("/"))
        built.fields.append(name: "Content-Length", value: "5")
        built.fields.append(name: "Content-Length", value: "5")
        #expect(throws: HTTP1Error(.duplicateContentLength)) { try RequestFraming(analyzing: built) }
        built.fields.removeAll(named: "content-length")
        built.fields.append(name: "Content-Length", value: "-5")
        #expect(throws: HTTP1Error(.invalidContentLength)) { try RequestFraming(analyzing: built) }
    }

    @Test func keepAlive() throws {
        #expect(try framing("").get().keepAlive)
        #expect(try !framing("Connection: close\r\n").get().keepAlive)
        #expect(try !framing("Connection: keep-alive, Close\r\n").get().keepAlive)
        #expect(try !framing("", version: "HTTP/1.0").get().keepAlive)
        #expect(try framing("Connection: Keep-Alive\r\n", version: "HTTP/1.0").get().keepAlive)
        #expect(try !framing("Connection: keep-alive, close\r\n", version: "HTTP/1.0").get().keepAlive)
        #expect(try framing("Connection: ,, keep-alive ,\r\n").get().connectionOptions == ["keep-alive"])
        // One option alone takes the shared-set path; look-alikes do not.
        #expect(try framing("Connection: Keep-Alive\r\n").get().connectionOptions == ["keep-alive"])
        #expect(try framing("Connection: CLOSE\r\n").get().connectionOptions == ["close"])
        #expect(try framing("Connection: keep-alivE2\r\n").get().connectionOptions == ["keep-alive2"])
        #expect(try framing("Connection: clos\r\n").get().connectionOptions == ["clos"])
        #expect(try framing("Connection: close\r\nConnection: keep-alive\r\n").get().connectionOptions
            == ["close", "keep-alive"])
    }

    @Test func expectContinue() throws {
        #expect(try framing("Expect: 100-continue\r\nContent-Length: 10\r\n").get().expectsContinue)
        #expect(try framing("Expect: 100-Continue\r\n").get().expectsContinue)
        #expect(try !framing("").get().expectsContinue)
        // RFC 9110 §10.1.1: ignored in HTTP/1.0.
        #expect(try !framing("Expect: 100-continue\r\n", version: "HTTP/1.0").get().expectsContinue)
    }

    @Test func upgradeNeedsBothTheConnectionOptionAndTheField() throws {
        #expect(try framing("Connection: Upgrade\r\nUpgrade: websocket\r\n").get().isUpgradeRequest)
        #expect(try !framing("Upgrade: websocket\r\n").get().isUpgradeRequest)
        #expect(try !framing("Connection: upgrade\r\n").get().isUpgradeRequest)
    }
}
