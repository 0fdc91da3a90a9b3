import Testing

@testable import HTTP1

@Suite struct ResponseFramingTests {
    private func framing(_ text: String, method: String = "GET") -> Result<ResponseFraming, HTTP1Error> {
        switch HeadFeeding.response([Array(text.utf8)]) {
        case .complete(let head, _):
            return Result { () throws(HTTP1Error) in try ResponseFraming(analyzing: head, requestMethod: method) }
        case .error(let error):
            return .failure(error)
        case .needMore:
            preconditionFailure("fixture is not a complete head: \(text)")
        }
    }

    private func body(_ text: String, method: String = "GET") -> BodyFraming? {
        try? framing(text, method: method).get().body
    }

    @Test func informationalResponsesAreInterimAndBodiless() throws {
        let continued = try framing("HTTP/1.1 100 Continue\r\nContent-Length: 5\r\n\r\n").get()
        #expect(continued.isInterim && continued.body == .none && !continued.isSwitchingProtocols)
        let hints = try framing("HTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\n").get()
        #expect(hints.isInterim && hints.body == .none)
        let switching = try framing("HTTP/1.1 101 Switching Protocols\r\nUpgrade: h2c\r\nConnection: upgrade\r\n\r\n")
            .get()
        #expect(switching.isSwitchingProtocols && !switching.isInterim && !switching.keepAlive)
    }

    @Test func noBodyFor204And304AndHEAD() {
        #expect(body("HTTP/1.1 204 No Content\r\nContent-Length: 10\r\n\r\n") == BodyFraming.none)
        #expect(body("HTTP/1.1 304 Not Modified\r\nTransfer-Encoding: chunked\r\n\r\n") == BodyFraming.none)
        #expect(body("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n", method: "HEAD") == BodyFraming.none)
        #expect(body("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n", method: "GET") == .contentLength(10))
    }

    @Test func lengthChunkedOrUntilClose() throws {
        #expect(body("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n") == .contentLength(0))
        #expect(body("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n") == .chunked)
        #expect(body("HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n") == .chunked)
        // RFC 9112 §6.3 rule 4: chunked not final in a response means "read until close".
        #expect(body("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked, gzip\r\n\r\n") == .untilClose)
        #expect(body("HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\n") == .untilClose)
        let open = try framing("HTTP/1.1 200 OK\r\n\r\n").get()
        #expect(open.body == .untilClose && !open.keepAlive)
    }

    /// Failed before: the list was split at every comma, so a quoted parameter value holding one (RFC 9110 §5.6.6)
    /// left a half-quoted element that was refused; parameters were dropped when the codings were announced again.
    @Test func codingParametersAreParsedWhole() throws {
        let quoted = try framing("HTTP/1.1 200 OK\r\nTransfer-Encoding: x-pack ; p=\"a,b\\\"c\";q=1 , chunked\r\n\r\n").get()
        #expect(quoted.body == .chunked)
        #expect(quoted.otherTransferCodings == [Array(#"x-pack ; p="a,b\"c";q=1"#.utf8)])
        let lines = try framing("HTTP/1.1 200 OK\r\nTransfer-Encoding: GZIP;level = 9\r\nTransfer-Encoding: chunked\r\n\r\n").get()
        #expect(lines.body == .chunked && lines.otherTransferCodings == [Array("GZIP;level = 9".utf8)])
        let open = try framing("HTTP/1.1 200 OK\r\nTransfer-Encoding: x;p=\",\"\r\n\r\n").get()
        #expect(open.body == .untilClose && open.otherTransferCodings == [Array(#"x;p=",""#.utf8)])
    }

    @Test(arguments: [
        "x;p=\"a,b, chunked",  // the quoted string never closes
        "x;p=\"a\\",  // a quoted-pair cut off by the end of the line
        "x;, chunked",  // a parameter without a name
        "x;p, chunked",  // a parameter without a value
        "x;p=, chunked",  // an empty value
        "x;p=a b, chunked",  // a space inside a token value
        "x \"p\", chunked",  // text after the name that is no parameter
        "chunked,",  // an empty last element
        "gzip,, chunked",  // an empty element between
    ])
    func malformedCodingLists(value: String) {
        guard case .failure(let error) = framing("HTTP/1.1 200 OK\r\nTransfer-Encoding: \(value)\r\n\r\n") else {
            Issue.record("accepted Transfer-Encoding: \(value)")
            return
        }
        #expect(error.code == .invalidTransferEncoding)
    }

    @Test(arguments: [
        (
            "HTTP/1.1 200 OK\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n",
            HTTP1Error.Code.contentLengthWithTransferEncoding
        ),
        (
            "HTTP/1.1 204 OK\r\nContent-Length: 0\r\nTransfer-Encoding: chunked\r\n\r\n",
            .contentLengthWithTransferEncoding
        ),
        ("HTTP/1.0 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n", .transferEncodingInHTTP10),
        ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked, chunked\r\n\r\n", .invalidTransferEncoding),
        ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked;x=1\r\n\r\n", .invalidTransferEncoding),
        ("HTTP/1.1 200 OK\r\nTransfer-Encoding: , chunked\r\n\r\n", .invalidTransferEncoding),
        ("HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 1\r\n\r\n", .duplicateContentLength),
        ("HTTP/1.1 200 OK\r\nContent-Length: 0x10\r\n\r\n", .invalidContentLength),
        ("HTTP/1.1 200 OK\r\nConnection: a b\r\n\r\n", .invalidConnection),
    ])
    func rejects(text: String, code: HTTP1Error.Code) {
        guard case .failure(let error) = framing(text) else {
            Issue.record("accepted \(text)")
            return
        }
        #expect(error.code == code)
    }

    @Test func keepAlive() throws {
        #expect(try framing("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n").get().keepAlive)
        #expect(try !framing("HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n").get().keepAlive)
        #expect(try !framing("HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n").get().keepAlive)
        #expect(try framing("HTTP/1.0 200 OK\r\nContent-Length: 0\r\nConnection: keep-alive\r\n\r\n").get().keepAlive)
        #expect(try framing("HTTP/1.0 204 OK\r\nConnection: keep-alive\r\n\r\n").get().keepAlive)
    }

    @Test func headResponsesOnAConnectionAreFramedByTheirRequests() {
        let text = "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello"
        let transcript = SplitFeeder.verify(Array(text.utf8)) {
            ConnectionDriver.responses($0, requestMethods: ["HEAD", "GET"])
        }
        #expect(transcript.messages.map(\.body) == [[], Array("hello".utf8)])
        #expect(transcript.end == .open)
    }

    @Test func closeDelimitedBodyEndsAtEOF() {
        let text = "HTTP/1.1 200 OK\r\n\r\nevery byte until close"
        let transcript = SplitFeeder.verify(Array(text.utf8)) { ConnectionDriver.responses($0, finish: true) }
        #expect(transcript.messages.map(\.body) == [Array("every byte until close".utf8)])
        #expect(transcript.end == .closed(nil))
    }
}
