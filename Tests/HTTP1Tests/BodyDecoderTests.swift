import Testing

@testable import HTTP1

@Suite struct BodyDecoderTests {
    @Test func contentLengthTakesExactlyTheLengthAndLeavesTheRest() {
        let text = "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nhelloGET / HTTP/1.1\r\nHost: a\r\n\r\n"
        let transcript = SplitFeeder.verify(Array(text.utf8)) { ConnectionDriver.requests($0) }
        #expect(transcript.messages.map(\.body) == [Array("hello".utf8), []])
        #expect(transcript.messages.map(\.framing) == [.contentLength(5), .none])
        #expect(transcript.end == .open)
    }

    @Test func zeroLengthAndNoBodyEndAtOnce() {
        for framing in [BodyFraming.none, .contentLength(0)] {
            var decoder = BodyDecoder(framing: framing)
            #expect(decoder.isComplete)
            #expect([UInt8](Array("x".utf8)).withUnsafeBytes { decoder.decode($0) } == .end(consumed: 0))
            #expect(decoder.finish() == nil)
        }
    }

    @Test func contentLengthDataThenEndOnAnEmptySpan() {
        var decoder = BodyDecoder(framing: .contentLength(3))
        #expect(Array("ab".utf8).withUnsafeBytes { decoder.decode($0) } == .data(0..<2))
        #expect(!decoder.isComplete)
        #expect([UInt8]().withUnsafeBytes { decoder.decode($0) } == .needMore)
        #expect(decoder.finish() == HTTP1Error(.truncatedBody, offset: 2))
        #expect(Array("cde".utf8).withUnsafeBytes { decoder.decode($0) } == .data(0..<1))
        #expect([UInt8]().withUnsafeBytes { decoder.decode($0) } == .end(consumed: 0))
        #expect(decoder.consumed == 3)
        #expect(decoder.finish() == nil)
    }

    @Test func chunkedThroughTheCommonDecoder() {
        var decoder = BodyDecoder(framing: .chunked)
        let bytes = Array("3\r\nabc\r\n0\r\n\r\nZ".utf8)
        bytes.withUnsafeBytes { raw in
            #expect(decoder.decode(raw) == .data(3..<6))
            #expect(decoder.decode(UnsafeRawBufferPointer(rebasing: raw[6...])) == .end(consumed: 7))
        }
        #expect(decoder.consumed == 13)
        #expect(decoder.isComplete)
    }

    @Test func untilCloseTakesEverythingAndEndsAtEOF() {
        var decoder = BodyDecoder(framing: .untilClose)
        #expect(Array("abc".utf8).withUnsafeBytes { decoder.decode($0) } == .data(0..<3))
        #expect([UInt8]().withUnsafeBytes { decoder.decode($0) } == .needMore)
        #expect(!decoder.isComplete)
        #expect(decoder.finish() == nil)
        #expect(decoder.isComplete)
        #expect([UInt8]().withUnsafeBytes { decoder.decode($0) } == .end(consumed: 0))
    }

    @Test func connectionDriverStopsAfterClose() {
        let text = "GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\nGET /smuggled HTTP/1.1\r\nHost: a\r\n\r\n"
        let transcript = SplitFeeder.verify(Array(text.utf8)) { ConnectionDriver.requests($0) }
        #expect(transcript.messages.count == 1)
        #expect(transcript.end == .dataAfterClose)
    }

    @Test func chunkedRequestSmugglingAttemptsAreRefused() {
        // TE.CL, CL.TE, TE.TE obfuscations: every one must stop before a second request is seen.
        let attacks = [
            "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n5c\r\nGPOST / HTTP/1.1\r\n\r\n0\r\n\r\n",
            "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: x\r\n\r\n0\r\n\r\nG",
            "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding : chunked\r\n\r\n0\r\n\r\nG",
            "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding:\u{0B}chunked\r\n\r\n0\r\n\r\nG",
            "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5\nhello\r\n0\r\n\r\n",
            "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5;a=b\nhello\r\n0\r\n\r\n",
            "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nhello\r\n0\r\n\r\n",
            "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 0\r\nContent-Length: 44\r\n\r\nGET /x HTTP/1.1\r\n\r\n",
            "POST / HTTP/1.0\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
            "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n X: y\r\n\r\n0\r\n\r\n",
        ]
        for attack in attacks {
            let transcript = SplitFeeder.verify(Array(attack.utf8)) { ConnectionDriver.requests($0) }
            #expect(transcript.errorCode != nil, "\(attack.debugDescription) -> \(transcript)")
            #expect(transcript.messages.isEmpty, "\(attack.debugDescription)")
        }
    }
}
