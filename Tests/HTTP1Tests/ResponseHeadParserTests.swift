import Testing

@testable import HTTP1

@Suite struct ResponseHeadParserTests {
    private func parse(_ text: String, limits: HeadLimits = HeadLimits()) -> HeadOutcome<ResponseHead> {
        parse(Array(text.utf8), limits: limits)
    }

    private func parse(_ bytes: [UInt8], limits: HeadLimits = HeadLimits()) -> HeadOutcome<ResponseHead> {
        SplitFeeder.verify(bytes) { HeadFeeding.response($0, parser: ResponseHeadParser(limits: limits)) }
    }

    @Test func parsesStatusLineAndFields() {
        guard case .complete(let head, let rest) = parse("HTTP/1.1 201 Created\r\nLocation: /x\r\nA:b\r\n\r\nbody")
        else {
            Issue.record("expected a head")
            return
        }
        #expect(rest == Array("body".utf8))
        #expect(head.version == .http1_1)
        #expect(head.status == 201)
        #expect(head.reason == "Created")
        #expect(head["location"] == "/x")
        #expect(head["A"] == "b")
        #expect(!head.isInformational)
    }

    @Test(arguments: [
        ("HTTP/1.1 200 OK\r\n\r\n", 200, "OK"),
        ("HTTP/1.0 404 Not Found\r\n\r\n", 404, "Not Found"),
        ("HTTP/1.1 200 \r\n\r\n", 200, ""),
        ("HTTP/1.1 301\r\n\r\n", 301, ""),
        ("HTTP/1.1 200  OK\r\n\r\n", 200, " OK"),
        ("HTTP/1.1 599 x\ty\r\n\r\n", 599, "x\ty"),
        ("\r\nHTTP/1.1 100 Continue\r\n\r\n", 100, "Continue"),
    ])
    func acceptsStatusLines(text: String, status: Int, reason: String) {
        let head = parse(text).head
        #expect(head?.status == status)
        #expect(head?.reason == reason)
    }

    @Test func keepsObsTextInTheReasonPhrase() {
        let bytes = Array("HTTP/1.1 500 Ori".utf8) + [0xC3, 0xAB] + Array("nt\r\n\r\n".utf8)
        #expect(parse(bytes).head.map { Array($0.reasonBytes) } == Array("Ori".utf8) + [0xC3, 0xAB] + Array("nt".utf8))
    }

    @Test(arguments: [
        ("HTP/1.1 200 OK\r\n\r\n", HTTP1Error.Code.invalidVersion, 2),
        ("HTTP/01.1 200 OK\r\n\r\n", .invalidVersion, 6),
        ("HTTP/1.01 200 OK\r\n\r\n", .invalidVersion, 8),
        ("HTTP/1.1\t200 OK\r\n\r\n", .invalidStatusLine, 8),
        ("HTTP/1.1\r\n\r\n", .invalidStatusLine, 8),
        ("HTTP/2.0 200 OK\r\n\r\n", .unsupportedVersion, 0),
        ("HTTP/1.1  200 OK\r\n\r\n", .invalidStatusCode, 9),
        ("HTTP/1.1 2 OK\r\n\r\n", .invalidStatusCode, 10),
        ("HTTP/1.1 2000 OK\r\n\r\n", .invalidStatusCode, 12),
        ("HTTP/1.1 099 OK\r\n\r\n", .invalidStatusCode, 9),
        ("HTTP/1.1 600 OK\r\n\r\n", .invalidStatusCode, 9),
        ("HTTP/1.1 200 O\u{1}K\r\n\r\n", .invalidStatusLine, 14),
        ("HTTP/1.1 200 OK\nA: b\r\n\r\n", .bareLF, 15),
        ("HTTP/1.1 200 OK\rA: b\r\n\r\n", .bareCR, 15),
        ("HTTP/1.1 200 OK\r\nA: b\r\n c\r\n\r\n", .obsFold, 23),
        ("HTTP/1.1 200 OK\r\nA : b\r\n\r\n", .whitespaceBeforeColon, 18),
        ("HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 1\r\n\r\n", .duplicateContentLength, 36),
        ("HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n", .invalidContentLength, 33),
    ])
    func rejects(text: String, code: HTTP1Error.Code, offset: Int) {
        #expect(parse(text) == .error(HTTP1Error(code, offset: offset)))
    }

    @Test func statusLineAndHeadLimits() {
        let text = "HTTP/1.1 200 OK\r\nA: b\r\n\r\n"
        #expect(parse(text, limits: HeadLimits(maxStartLineBytes: 15)).head != nil)
        #expect(
            parse(text, limits: HeadLimits(maxStartLineBytes: 14)) == .error(HTTP1Error(.statusLineTooLong, offset: 14))
        )
        #expect(parse(text, limits: HeadLimits(maxHeadBytes: text.utf8.count)).head != nil)
        #expect(
            parse(text, limits: HeadLimits(maxHeadBytes: text.utf8.count - 1))
                == .error(HTTP1Error(.headTooLarge, offset: text.utf8.count - 1))
        )
    }

    @Test func interimThenFinalHeadOnOneParser() {
        let text = "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\nHTTP/1.1 200 OK\r\n\r\n"
        let statuses = SplitFeeder.verify(Array(text.utf8)) { chunks -> [Int] in
            var parser = ResponseHeadParser()
            var statuses: [Int] = []
            for chunk in chunks {
                var rest = chunk[...]
                while !rest.isEmpty,
                    case .complete(let head, let consumed) = Array(rest).withUnsafeBytes({ parser.feed($0) })
                {
                    statuses.append(head.status)
                    rest = rest.dropFirst(consumed)
                }
            }
            return statuses
        }
        #expect(statuses == [100, 103, 200])
    }

    @Test func finishInsideAHeadIsTruncation() {
        var parser = ResponseHeadParser()
        #expect(Array("HTTP/1.1 2".utf8).withUnsafeBytes { parser.feed($0) } == .needMore)
        #expect(parser.finish() == HTTP1Error(.truncatedHead, offset: 10))
        parser.reset()
        #expect(parser.finish() == nil)
    }
}
