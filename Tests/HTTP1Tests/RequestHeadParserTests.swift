import Testing

@testable import HTTP1

@Suite struct RequestHeadParserTests {
    /// Parses `text` under every split and returns the common outcome.
    private func parse(
        _ text: String,
        limits: HeadLimits = HeadLimits(),
        methods: MethodPolicy = .registered
    )
        -> HeadOutcome<RequestHead>
    {
        parse(Array(text.utf8), limits: limits, methods: methods)
    }

    private func parse(
        _ bytes: [UInt8],
        limits: HeadLimits = HeadLimits(),
        methods: MethodPolicy = .registered
    )
        -> HeadOutcome<RequestHead>
    {
        SplitFeeder.verify(bytes) {
            HeadFeeding.request($0, parser: RequestHeadParser(limits: limits, methods: methods))
        }
    }

    private func expectRejected(
        _ text: String,
        _ code: HTTP1Error.Code,
        at offset: Int,
        limits: HeadLimits = HeadLimits(),
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let outcome = parse(text, limits: limits)
        #expect(outcome == .error(HTTP1Error(code, offset: offset)), sourceLocation: sourceLocation)
    }

    @Test func commonMethodsAreLiteralsAndOthersAreNot() {
        func common(_ text: String) -> String? {
            Array(text.utf8).withUnsafeBytes { RequestHeadParser.commonMethod($0, count: $0.count) }
        }
        for method in ["GET", "PUT", "POST", "HEAD", "PATCH", "DELETE", "OPTIONS"] {
            #expect(common(method) == method)
        }
        for other in ["get", "Post", "GEX", "PUSH", "HEADS", "CONNECT", "TRACE", "PATCHY", "DELETF", "OPTION", "", "P"] {
            #expect(common(other) == nil, "\(other)")
        }
        // The literal is the method the head carries.
        guard case .complete(let head, _) = parse("PATCH /x HTTP/1.1\r\nHost: a\r\n\r\n") else {
            Issue.record("not parsed")
            return
        }
        #expect(head.method == "PATCH")
    }

    @Test func parsesMethodTargetVersionAndOrderedFields() throws {
        let text =
            "POST /upload?x=1 HTTP/1.1\r\nHost: example.com\r\nX-Dup: a\r\ncontent-TYPE:  text/plain \t\r\nX-Dup: b\r\n\r\nBODY"
        let outcome = parse(text)
        guard case .complete(let head, let rest) = outcome else {
            Issue.record("expected a head, got \(outcome)")
            return
        }
        #expect(rest == Array("BODY".utf8))
        #expect(head.method == "POST")
        #expect(head.target.string == "/upload?x=1")
        #expect(head.target.form == .origin)
        #expect(head.version == .http1_1)
        #expect(head.fields.map(\.name) == ["Host", "X-Dup", "content-TYPE", "X-Dup"])
        #expect(head.fields.map(\.value) == ["example.com", "a", "text/plain", "b"])
        #expect(head["Content-Type"] == "text/plain")
        #expect(head.values("x-dup") == ["a", "b"])
        #expect(head.contains("HOST"))
        #expect(!head.contains("Hos"))
    }

    @Test func reportsBytesConsumedFromTheSpanThatEndsTheHead() {
        var parser = RequestHeadParser()
        let first = Array("GET / HTTP/1.1\r\nHost: a\r".utf8)
        let second = Array("\n\r\nGET /next HTTP/1.1\r\n".utf8)
        #expect(first.withUnsafeBytes { parser.feed($0) } == .needMore)
        guard case .complete(_, let consumed) = second.withUnsafeBytes({ parser.feed($0) }) else {
            Issue.record("head not complete")
            return
        }
        #expect(consumed == 3)
        #expect(parser.isIdle)
        let rest = Array(second[consumed...])
        #expect(rest.withUnsafeBytes { parser.feed($0) } == .needMore)
        #expect(parser.finish() == HTTP1Error(.truncatedHead, offset: rest.count))
    }

    @Test func keepsObsTextBytesAndEmptyValues() {
        let bytes: [UInt8] =
            Array("GET / HTTP/1.0\r\nX-Name: caf".utf8) + [0xC3, 0xA9, 0xFF] + Array("\r\nX-Empty:\r\n\r\n".utf8)
        guard case .complete(let head, _) = parse(bytes) else {
            Issue.record("expected a head")
            return
        }
        #expect(head.version == .http1_0)
        #expect(head.fields[0].valueBytes == Array("caf".utf8) + [0xC3, 0xA9, 0xFF])
        #expect(head.fields[1].valueBytes == [])
    }

    @Test func skipsEmptyLinesBeforeTheRequestLine() {
        #expect(parse("\r\n\r\nGET / HTTP/1.1\r\n\r\n").head?.method == "GET")
        expectRejected("\nGET / HTTP/1.1\r\n\r\n", .bareLF, at: 0)
        expectRejected("\rGET / HTTP/1.1\r\n\r\n", .bareCR, at: 0)
    }

    @Test(arguments: [
        ("GET / HTTP/1.1\nHost: a\r\n\r\n", HTTP1Error.Code.bareLF, 14),
        ("GET / HTTP/1.1\r\nHost: a\n\r\n", .bareLF, 23),
        ("GET / HTTP/1.1\r\nHost: a\r\n\n", .bareLF, 25),
        ("GET / HTTP/1.1\rHost: a\r\n\r\n", .bareCR, 14),
        ("GET / HTTP/1.1\r\nHost: a\rb\r\n\r\n", .bareCR, 23),
        ("GET / HTTP/1.1\r\nHost: a\r\n\rX", .bareCR, 25),
        ("GET / HTTP/1.1\r\nA: 1\r\n  folded\r\n\r\n", .obsFold, 22),
        ("GET / HTTP/1.1\r\nA: 1\r\n\tfolded\r\n\r\n", .obsFold, 22),
        ("GET / HTTP/1.1\r\n Host: a\r\n\r\n", .whitespaceAfterStartLine, 16),
        ("GET / HTTP/1.1\r\nHost : a\r\n\r\n", .whitespaceBeforeColon, 20),
        ("GET / HTTP/1.1\r\nHost\t: a\r\n\r\n", .whitespaceBeforeColon, 20),
        ("GET / HTTP/1.1\r\n: a\r\n\r\n", .emptyFieldName, 16),
        ("GET / HTTP/1.1\r\nHo(st: a\r\n\r\n", .invalidFieldName, 18),
        ("GET / HTTP/1.1\r\n@Host: a\r\n\r\n", .invalidFieldName, 16),
        ("GET / HTTP/1.1\r\nHost\r\n\r\n", .missingColon, 20),
        ("GET / HTTP/1.1\r\nA: x\u{0}y\r\n\r\n", .invalidFieldValue, 20),
        ("GET / HTTP/1.1\r\nA: x\u{7F}\r\n\r\n", .invalidFieldValue, 20),
        ("GET / HTTP/1.1\r\nA: \u{0B}chunked\r\n\r\n", .invalidFieldValue, 19),
        ("G(T / HTTP/1.1\r\n\r\n", .invalidMethod, 1),
        (" GET / HTTP/1.1\r\n\r\n", .invalidMethod, 0),
        ("GET  / HTTP/1.1\r\n\r\n", .invalidRequestLine, 4),
        ("GET / HTTP/1.1 \r\n\r\n", .invalidVersion, 14),
        ("GET /\r\n\r\n", .invalidRequestLine, 5),
        ("GET\r\n\r\n", .invalidRequestLine, 3),
        ("GET /a b HTTP/1.1\r\n\r\n", .invalidVersion, 7),
        ("GET /\u{7F} HTTP/1.1\r\n\r\n", .invalidTarget, 5),
        ("GET /a\tb HTTP/1.1\r\n\r\n", .invalidTarget, 6),
        ("GET / http/1.1\r\n\r\n", .invalidVersion, 6),
        ("GET / HTTP/1.x\r\n\r\n", .invalidVersion, 13),
        ("GET / HTTP/1.10\r\n\r\n", .invalidVersion, 14),
        ("GET / HTTP/2.0\r\n\r\n", .unsupportedVersion, 6),
        ("GET / HTTP/0.9\r\n\r\n", .unsupportedVersion, 6),
        ("GET / HTTP/1.2\r\n\r\n", .unsupportedVersion, 6),
        ("get / HTTP/1.1\r\n\r\n", .unknownMethod, 0),
        ("BREW / HTTP/1.1\r\n\r\n", .unknownMethod, 0),
        ("GET * HTTP/1.1\r\n\r\n", .invalidTargetForm, 4),
        ("OPTIONS example.com:80 HTTP/1.1\r\n\r\n", .invalidTarget, 8),
        ("CONNECT /x HTTP/1.1\r\n\r\n", .invalidTargetForm, 8),
        ("CONNECT example.com HTTP/1.1\r\n\r\n", .invalidTarget, 19),
        ("GET /a#b HTTP/1.1\r\n\r\n", .invalidTarget, 6),
        ("GET /a\\..\\b HTTP/1.1\r\n\r\n", .invalidTarget, 6),
        ("GET /%zz HTTP/1.1\r\n\r\n", .invalidTarget, 5),
        ("GET /a?b=%2 HTTP/1.1\r\n\r\n", .invalidTarget, 9),
        ("GET ftp://a/ HTTP/1.1\r\n\r\n", .invalidTarget, 4),
        ("GET http://u:p@host/ HTTP/1.1\r\n\r\n", .userinfoInTarget, 14),
        ("GET http:///x HTTP/1.1\r\n\r\n", .invalidTarget, 11),
        // Dot segments (a backend resolving them serves another path than the one routed on):
        ("GET /a/../b HTTP/1.1\r\n\r\n", .invalidTarget, 7),
        ("GET /./x HTTP/1.1\r\n\r\n", .invalidTarget, 5),
        ("GET /a/%2e%2E HTTP/1.1\r\n\r\n", .invalidTarget, 7),
        ("GET /a/.?q HTTP/1.1\r\n\r\n", .invalidTarget, 7),
        ("GET /.. HTTP/1.1\r\n\r\n", .invalidTarget, 5),
        ("GET http://h/a/.%2e/b HTTP/1.1\r\n\r\n", .invalidTarget, 15),
        // With `;` parameters, which Tomcat and Jetty drop before resolving (`/..;/admin`):
        ("GET /a/..;/admin HTTP/1.1\r\n\r\n", .invalidTarget, 7),
        ("GET /a/.;x=1/b HTTP/1.1\r\n\r\n", .invalidTarget, 7),
        ("GET /a/%2e%2e;jsessionid=0123456789 HTTP/1.1\r\n\r\n", .invalidTarget, 7),
    ])
    func rejects(text: String, code: HTTP1Error.Code, offset: Int) {
        expectRejected(text, code, at: offset)
    }

    @Test func rejectsNonASCIIInTheTarget() {
        let bytes = Array("GET /".utf8) + [0xCE, 0xB4] + Array(" HTTP/1.1\r\n\r\n".utf8)
        #expect(parse(bytes) == .error(HTTP1Error(.invalidTarget, offset: 5)))
    }

    @Test func acceptsEveryTargetForm() {
        let cases: [(String, RequestTarget.Form)] = [
            ("GET /a/b?c=d&e=%2F HTTP/1.1", .origin),
            ("GET /a/..b/.well-known/.../%2e%2e%2e/c?x=/../ HTTP/1.1", .origin),
            ("GET /a;v=1/b;jsessionid=0123456789/...;x/..b;y HTTP/1.1", .origin),
            ("GET http://example.com HTTP/1.1", .absolute),
            ("GET HTTPS://example.com:8443/p?q HTTP/1.1", .absolute),
            ("CONNECT example.com:443 HTTP/1.1", .authority),
            ("CONNECT [::1]:443 HTTP/1.1", .authority),
            ("OPTIONS * HTTP/1.1", .asterisk),
            ("GET /with_\"quotes\"?q=\\x|{} HTTP/1.1", .origin),
        ]
        for (line, form) in cases {
            #expect(parse(line + "\r\n\r\n").head?.target.form == form, "\(line)")
        }
    }

    @Test func methodPolicyAnyTokenAcceptsExtensionMethods() {
        #expect(parse("BREW / HTTP/1.1\r\n\r\n", methods: .anyToken).head?.method == "BREW")
        #expect(parse("QUERY / HTTP/1.1\r\n\r\n").head?.method == "QUERY")
    }

    @Test func headOfExactlyTheLimitIsAcceptedAndOneMoreByteIsRefusedWith431() {
        let head = "GET / HTTP/1.1\r\nX: 12345\r\n\r\n"
        let limit = head.utf8.count
        #expect(parse(head, limits: HeadLimits(maxHeadBytes: limit)).head != nil)
        let longer = "GET / HTTP/1.1\r\nX: 123456\r\n\r\n"
        let outcome = parse(longer, limits: HeadLimits(maxHeadBytes: limit))
        #expect(outcome == .error(HTTP1Error(.headTooLarge, offset: limit)))
        #expect(outcome.code?.name == "head_too_large")
        #expect(HTTP1Error.Code.headTooLarge.suggestedStatus == 431)
        // Leading empty lines count toward the limit.
        #expect(parse("\r\n" + head, limits: HeadLimits(maxHeadBytes: limit)).code == .headTooLarge)
        // Bytes after a complete head are never counted.
        #expect(parse(head + String(repeating: "x", count: 100), limits: HeadLimits(maxHeadBytes: limit)).head != nil)
    }

    @Test func fieldCountLimit() {
        let two = "GET / HTTP/1.1\r\nA: 1\r\nB: 2\r\n\r\n"
        #expect(parse(two, limits: HeadLimits(maxFieldCount: 2)).head?.fields.count == 2)
        let three = "GET / HTTP/1.1\r\nA: 1\r\nB: 2\r\nC: 3\r\n\r\n"
        #expect(parse(three, limits: HeadLimits(maxFieldCount: 2)) == .error(HTTP1Error(.tooManyFields, offset: 28)))
        #expect(HTTP1Error.Code.tooManyFields.suggestedStatus == 431)
    }

    @Test func requestLineLimitAnswers414() {
        let line = "GET /abcdef HTTP/1.1"  // 20 bytes
        #expect(parse(line + "\r\n\r\n", limits: HeadLimits(maxStartLineBytes: 20)).head != nil)
        #expect(
            parse(line + "\r\n\r\n", limits: HeadLimits(maxStartLineBytes: 19))
                == .error(HTTP1Error(.requestLineTooLong, offset: 19))
        )
        #expect(HTTP1Error.Code.requestLineTooLong.suggestedStatus == 414)
    }

    @Test func fieldLineLimit() {
        let field = "X-Long: 1234567890"  // 18 bytes
        let text = "GET / HTTP/1.1\r\n" + field + "\r\n\r\n"
        #expect(parse(text, limits: HeadLimits(maxFieldLineBytes: 18)).head != nil)
        #expect(
            parse(text, limits: HeadLimits(maxFieldLineBytes: 17)) == .error(HTTP1Error(.fieldLineTooLong, offset: 33))
        )
        // Trailing whitespace counts: it is part of the line.
        let padded = "GET / HTTP/1.1\r\n" + field + "  \r\n\r\n"
        #expect(parse(padded, limits: HeadLimits(maxFieldLineBytes: 18)).code == .fieldLineTooLong)
    }

    /// The scanner takes names and values in runs; the limit must still fire at the first byte past it,
    /// whether that byte is in the name, at the colon, in the value or in its whitespace, under every split.
    @Test func fieldLineLimitFiresAtTheFirstByteBeyondItAtEveryLength() {
        for field in ["X-Long-Name-Here: ab", "X: 1234567890 \t 12", "Content-Length:  1234567 "] {
            let text = "GET / HTTP/1.1\r\n" + field + "\r\n\r\n"
            let lineBytes = field.utf8.count
            #expect(parse(text, limits: HeadLimits(maxFieldLineBytes: lineBytes)).head != nil)
            for limit in 1..<lineBytes {
                #expect(
                    parse(text, limits: HeadLimits(maxFieldLineBytes: limit))
                        == .error(HTTP1Error(.fieldLineTooLong, offset: 16 + limit)),
                    "\(field) limit \(limit)"
                )
            }
        }
    }

    @Test func contentLengthIsCheckedAsItArrives() {
        // No head end is needed to refuse these.
        #expect(parse("PUT / HTTP/1.1\r\nContent-Length: 1\r\ncontent-length:").code == .duplicateContentLength)
        #expect(parse("PUT / HTTP/1.1\r\nContent-Length: 99999999999999999999").code == .contentLengthOverflow)
        #expect(parse("PUT / HTTP/1.1\r\nContent-Length: +5").code == .invalidContentLength)
        #expect(parse("PUT / HTTP/1.1\r\nContent-Length: 5, 5").code == .invalidContentLength)
        #expect(parse("PUT / HTTP/1.1\r\nContent-Length: 4 2\r\n").code == .invalidContentLength)
        #expect(parse("PUT / HTTP/1.1\r\nContent-Length: \r\n").code == .invalidContentLength)
        #expect(parse("PUT / HTTP/1.1\r\nContent-Length:\t 007 \t\r\n\r\n").head?["content-length"] == "007")
        // A longer name that starts like Content-Length is another field.
        #expect(parse("PUT / HTTP/1.1\r\nContent-Length-X: a\r\nContent-Lengt: b\r\n\r\n").head?.fields.count == 2)
    }

    @Test func staysFailedUntilReset() {
        var parser = RequestHeadParser()
        let bad = Array("GET / HTTP/1.1\r\nA\u{1}: b\r\n\r\n".utf8)
        let error = HTTP1Error(.invalidFieldName, offset: 17)
        #expect(bad.withUnsafeBytes { parser.feed($0) } == .error(error))
        let good = Array("GET / HTTP/1.1\r\n\r\n".utf8)
        #expect(good.withUnsafeBytes { parser.feed($0) } == .error(error))
        #expect(parser.finish() == error)
        parser.reset()
        #expect(good.withUnsafeBytes { parser.feed($0) } != .error(error))
    }

    @Test func emptySpansAreHarmless() {
        var parser = RequestHeadParser()
        #expect([UInt8]().withUnsafeBytes { parser.feed($0) } == .needMore)
        #expect(parser.isIdle)
        #expect(parser.finish() == nil)
    }

    @Test func pipelinedHeadsParseOneAfterAnother() {
        let text = "GET /1 HTTP/1.1\r\nHost: a\r\n\r\nGET /2 HTTP/1.1\r\nHost: a\r\n\r\n"
        let targets = SplitFeeder.verify(Array(text.utf8)) { chunks -> [String] in
            var parser = RequestHeadParser()
            var targets: [String] = []
            for chunk in chunks {
                var rest = chunk[...]
                while !rest.isEmpty {
                    let result = Array(rest).withUnsafeBytes { parser.feed($0) }
                    guard case .complete(let head, let consumed) = result else {
                        break
                    }
                    targets.append(head.target.string)
                    rest = rest.dropFirst(consumed)
                }
            }
            return targets
        }
        #expect(targets == ["/1", "/2"])
    }
}
