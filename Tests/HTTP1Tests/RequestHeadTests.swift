import Testing

@testable import HTTP1

@Suite struct RequestHeadTests {
    private func head(_ text: String) -> RequestHead {
        guard let head = HeadFeeding.requestHead(text) else {
            preconditionFailure("fixture must parse: \(text)")
        }
        return head
    }

    @Test func serialisesTheReceivedHeadByteForByteWhenNothingChanges() {
        let text = "POST /a?b HTTP/1.1\r\nHost: example.com\r\nX-Odd-Case: v\r\nX-Obs: caf\u{E9}\r\nX-Empty: \r\n\r\n"
        // The fixture has exactly one SP after each colon: OWS around values is not kept.
        #expect(head(text).serialized() == Array(text.utf8))
    }

    @Test func serialisedHeadReparsesToTheSameHead() {
        let original = head("PUT /x HTTP/1.1\r\nHost: a\r\nA:   spaced   \r\nB:\tx\t\r\n\r\n")
        let bytes = original.serialized()
        #expect(HeadFeeding.request([bytes]).head == original)
        #expect(bytes == Array("PUT /x HTTP/1.1\r\nHost: a\r\nA: spaced\r\nB: x\r\n\r\n".utf8))
    }

    @Test func removesHopByHopFieldsAndAddsForwardingFields() {
        let original = head(
            "POST http://example.com/up?x=1 HTTP/1.1\r\nHost: example.com\r\nConnection: keep-alive, X-Secret\r\n"
                + "Keep-Alive: timeout=5\r\nX-Secret: 1\r\nTE: trailers\r\nUpgrade: h2c\r\nProxy-Connection: x\r\n"
                + "Trailer: X\r\nTransfer-Encoding: chunked\r\nContent-Type: text/plain\r\n\r\n"
        )
        #expect(
            original.hopByHopFieldNames
                == [
                    "connection", "keep-alive", "proxy-connection", "te", "transfer-encoding", "upgrade", "trailer",
                    "x-secret",
                ]
        )
        let bytes = original.serialized(
            target: original.target.originForm,
            version: .http1_1,
            removing: FieldNameSet(original.hopByHopFieldNames),
            adding: [
                HTTPField(name: "X-Forwarded-For", value: "192.0.2.1"),
                HTTPField(name: "X-Forwarded-Proto", value: "https"),
                HTTPField(name: "Via", value: "1.1 partgate"),
                HTTPField(name: "Transfer-Encoding", value: "chunked"),
            ]
        )
        let expected =
            "POST /up?x=1 HTTP/1.1\r\nHost: example.com\r\nContent-Type: text/plain\r\nX-Forwarded-For: 192.0.2.1\r\n"
            + "X-Forwarded-Proto: https\r\nVia: 1.1 partgate\r\nTransfer-Encoding: chunked\r\n\r\n"
        #expect(bytes == Array(expected.utf8))
    }

    @Test func connectionOptionsNeverRemoveEndToEndFields() {
        var built = RequestHead(method: "GET", target: try! RequestTarget("/"))
        built.fields.append(name: "Connection", value: "Content-Length, Host, Content-Type, X-A")
        #expect(!built.hopByHopFieldNames.contains("content-length"))
        #expect(!built.hopByHopFieldNames.contains("host"))
        #expect(built.hopByHopFieldNames.contains("x-a"))
    }

    @Test func hostWithoutPortIsWhatRoutesMatch() throws {
        #expect(try head("GET / HTTP/1.1\r\nHost: example.com:8080\r\n\r\n").validatedHostWithoutPort() == "example.com")
        #expect(try head("GET / HTTP/1.1\r\nHost: example.com\r\n\r\n").validatedHostWithoutPort() == "example.com")
        #expect(try head("GET / HTTP/1.1\r\nHost: [::1]:80\r\n\r\n").validatedHostWithoutPort() == "::1")
        #expect(try head("GET / HTTP/1.1\r\nHost: [::1]\r\n\r\n").validatedHostWithoutPort() == "::1")
        #expect(try head("GET / HTTP/1.1\r\nHost:\r\n\r\n").validatedHostWithoutPort() == "")
        #expect(try head("GET / HTTP/1.0\r\n\r\n").validatedHostWithoutPort() == "")
        #expect(try head("GET http://a.example:81/x HTTP/1.1\r\nHost: b.example\r\n\r\n").validatedHostWithoutPort() == "a.example")
        #expect(try head("GET http://[::2]:81/x HTTP/1.1\r\nHost: b.example\r\n\r\n").validatedHostWithoutPort() == "::2")
        #expect(throws: HTTP1Error(.invalidHost)) {
            try head("GET / HTTP/1.1\r\nHost: a:b\r\n\r\n").validatedHostWithoutPort()
        }
        #expect(throws: HTTP1Error(.duplicateHost)) {
            try head("GET / HTTP/1.1\r\nHost: a\r\nHost: a\r\n\r\n").validatedHostWithoutPort()
        }
    }

    @Test func pathStringIsThePathAlone() throws {
        #expect(head("GET /upload HTTP/1.1\r\nHost: a\r\n\r\n").target.pathString == "/upload")
        #expect(head("GET /upload?x=1 HTTP/1.1\r\nHost: a\r\n\r\n").target.pathString == "/upload")
        #expect(head("GET http://a/up/load?q HTTP/1.1\r\nHost: a\r\n\r\n").target.pathString == "/up/load")
        #expect(head("GET http://a HTTP/1.1\r\nHost: a\r\n\r\n").target.pathString == "")
        #expect(head("GET / HTTP/1.1\r\nHost: a\r\n\r\n").target.pathString == "/")
    }

    @Test func hostRules() throws {
        #expect(try head("GET / HTTP/1.1\r\nHost: example.com:8080\r\n\r\n").validatedHost() == "example.com:8080")
        #expect(try head("GET / HTTP/1.1\r\nHost: [::1]:80\r\n\r\n").validatedHost() == "[::1]:80")
        #expect(try head("GET / HTTP/1.1\r\nHost:\r\n\r\n").validatedHost() == "")
        #expect(try head("GET / HTTP/1.0\r\n\r\n").validatedHost() == nil)
        // Absolute-form: the target's authority wins over Host (RFC 9112 §3.2.2).
        #expect(try head("GET http://a.example/x HTTP/1.1\r\nHost: b.example\r\n\r\n").validatedHost() == "a.example")
        #expect(throws: HTTP1Error(.missingHost)) { try head("GET / HTTP/1.1\r\n\r\n").validatedHost() }
        #expect(throws: HTTP1Error(.duplicateHost)) {
            try head("GET / HTTP/1.1\r\nHost: a\r\nHost: a\r\n\r\n").validatedHost()
        }
        #expect(throws: HTTP1Error(.duplicateHost)) {
            try head("GET / HTTP/1.0\r\nHost: a\r\nhost: b\r\n\r\n").validatedHost()
        }
        for bad in ["a b", "user@a", "a:b", "a:99999", "a/b", "[::1", "a,b", "a;b", "a:1:2", "%zz"] {
            #expect(throws: HTTP1Error(.invalidHost), "\(bad)") {
                try head("GET / HTTP/1.1\r\nHost: \(bad)\r\n\r\n").validatedHost()
            }
        }
    }

    @Test func multipleContentTypesAreRefused() throws {
        #expect(try head("POST / HTTP/1.1\r\nHost: a\r\n\r\n").singleContentType() == nil)
        #expect(
            try head("POST / HTTP/1.1\r\nHost: a\r\nContent-Type: multipart/form-data; boundary=x\r\n\r\n")
                .singleContentType() == "multipart/form-data; boundary=x"
        )
        #expect(throws: HTTP1Error(.duplicateContentType)) {
            try head("POST / HTTP/1.1\r\nContent-Type: text/plain\r\ncontent-type: multipart/form-data\r\n\r\n")
                .singleContentType()
        }
    }

    @Test func requestTargetComponents() throws {
        let absolute = try RequestTarget("https://example.com:8443/a/b?c=d", method: "POST")
        #expect(absolute.form == .absolute)
        #expect(absolute.scheme == "https")
        #expect(absolute.authority == "example.com:8443")
        #expect(absolute.path == "/a/b")
        #expect(absolute.query == "c=d")
        #expect(absolute.originForm == "/a/b?c=d")
        let bare = try RequestTarget("http://example.com?x")
        #expect(bare.path == "" && bare.originForm == "/?x")
        let origin = try RequestTarget("/p?q?r")
        #expect(
            origin.path == "/p" && origin.query == "q?r" && origin.originForm == "/p?q?r" && origin.authority == nil
        )
        let authority = try RequestTarget("example.com:443", method: "CONNECT")
        #expect(authority.form == .authority && authority.authority == "example.com:443" && authority.path == "")
        #expect(try RequestTarget("*", method: "OPTIONS").originForm == "*")
        #expect(throws: HTTP1Error(.invalidTarget, offset: 2)) { try RequestTarget("/a b") }
        #expect(throws: HTTP1Error(.invalidTarget, offset: 0)) { try RequestTarget("") }
    }
}
