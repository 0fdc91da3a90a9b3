import Testing

@testable import HTTP1

/// A finished head's field buffers handed back to a parser (``RequestHeadParser/recycle(_:)``) are filled by the
/// next head without changing what either head reads.
@Suite struct HeadRecyclingTests {
    private func request(_ parser: inout RequestHeadParser, _ text: String) throws -> RequestHead {
        let bytes = Array(text.utf8)
        let result = bytes.withUnsafeBytes { parser.feed($0) }
        guard case .complete(let head, let consumed) = consume result else {
            Issue.record("no complete head")
            throw HeadRecyclingFailure()
        }
        #expect(consumed == bytes.count)
        return head
    }

    private func response(_ parser: inout ResponseHeadParser, _ text: String) throws -> ResponseHead {
        let bytes = Array(text.utf8)
        let result = bytes.withUnsafeBytes { parser.feed($0) }
        guard case .complete(let head, _) = consume result else {
            Issue.record("no complete head")
            throw HeadRecyclingFailure()
        }
        return head
    }

    @Test func aRecycledRequestHeadsBuffersCarryTheNextHead() throws {
        var parser = RequestHeadParser()
        let first = try request(&parser, "POST /upload?a=1 HTTP/1.1\r\nHost: one.example\r\nX-Long: \(String(repeating: "v", count: 300))\r\n\r\n")
        parser.recycle(first.fields)
        let second = try request(&parser, "GET /b HTTP/1.1\r\nHost: two.example\r\nAccept: */*\r\n\r\n")
        // The first head still holds its buffers (they were shared when handed back): it reads as it did.
        #expect(first.fields.first(named: "host") == "one.example")
        #expect(first.fields.count(named: "x-long") == 1)
        #expect(first.target.string == "/upload?a=1")
        #expect(second.method == "GET")
        #expect(second.target.string == "/b")
        #expect(second.fields.first(named: "host") == "two.example")
        #expect(second.fields.first(named: "accept") == "*/*")
        #expect(!second.fields.contains(named: "x-long"))

        // Handed back with nothing else holding them.
        var third: RequestHead? = try request(&parser, "PUT /c HTTP/1.1\r\nHost: three.example\r\n\r\n")
        parser.recycle(third!.fields)
        third = nil
        let fourth = try request(&parser, "DELETE /d HTTP/1.1\r\nHost: four.example\r\nContent-Length: 0\r\n\r\n")
        #expect(fourth.method == "DELETE")
        #expect(fourth.target.string == "/d")
        #expect(fourth.fields.first(named: "host") == "four.example")
        #expect(fourth.fields.first(named: "content-length") == "0")
        #expect(fourth.fields.count(named: "host") == 1)
    }

    @Test func aParserInsideAHeadKeepsItsOwnBuffers() throws {
        var parser = RequestHeadParser()
        let first = try request(&parser, "GET /a HTTP/1.1\r\nHost: a\r\n\r\n")
        let partial = Array("GET /b HTTP/1.1\r\nHo".utf8)
        _ = partial.withUnsafeBytes { parser.feed($0) }
        parser.recycle(first.fields)  // ignored: bytes of a head were received
        let rest = Array("st: b\r\n\r\n".utf8)
        let result = rest.withUnsafeBytes { parser.feed($0) }
        guard case .complete(let second, _) = consume result else {
            Issue.record("no complete head")
            return
        }
        #expect(second.target.string == "/b")
        #expect(second.fields.first(named: "host") == "b")
        #expect(first.fields.first(named: "host") == "a")
    }

    @Test func largeBuffersAreNotKept() throws {
        var parser = RequestHeadParser()
        let big = try request(
            &parser, "GET / HTTP/1.1\r\nHost: a\r\nX-Big: \(String(repeating: "b", count: HTTPFields.maxRecycledBytes))\r\n\r\n")
        #expect(!big.fields.isRecyclable)
        parser.recycle(big.fields)
        let next = try request(&parser, "GET /n HTTP/1.1\r\nHost: n\r\n\r\n")
        #expect(next.fields.first(named: "host") == "n")
        #expect(big.fields.first(named: "host") == "a")
    }

    @Test func aRecycledResponseHeadsBuffersCarryTheNextHead() throws {
        var parser = ResponseHeadParser()
        var first: ResponseHead? = try response(
            &parser, "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nServer: one\r\nX-Pad: \(String(repeating: "p", count: 200))\r\n\r\n")
        #expect(first!.fields.first(named: "server") == "one")
        var next = ResponseHeadParser()
        next.recycle(first!.fields)
        first = nil
        let second = try response(&next, "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n")
        #expect(second.status == 404)
        #expect(second.fields.first(named: "content-length") == "0")
        #expect(!second.fields.contains(named: "server"))
        #expect(!second.fields.contains(named: "x-pad"))
    }
}

private struct HeadRecyclingFailure: Error {}
