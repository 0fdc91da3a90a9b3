import Testing

@testable import HTTP1

/// What decoding a whole chunked body produced.
private struct Decoded: Equatable {
    var data: [UInt8] = []
    /// Bytes after the body, left for the next message.
    var rest: [UInt8] = []
    var complete = false
    var error: HTTP1Error?
}

@Suite struct ChunkedDecoderTests {
    private func decode(_ chunks: [[UInt8]], limits: ChunkedLimits = ChunkedLimits()) -> Decoded {
        var decoder = ChunkedDecoder(limits: limits)
        var result = Decoded()
        for chunk in chunks {
            if result.complete {
                result.rest += chunk
                continue
            }
            var offset = 0
            loop: while true {
                let action = chunk.withUnsafeBytes { decoder.decode(UnsafeRawBufferPointer(rebasing: $0[offset...])) }
                switch action {
                case .needMore:
                    break loop
                case .data(let range):
                    #expect(!range.isEmpty)
                    result.data += chunk[(offset + range.lowerBound)..<(offset + range.upperBound)]
                    offset += range.upperBound
                case .end(let consumed):
                    result.complete = true
                    result.rest += chunk[(offset + consumed)...]
                    break loop
                case .error(let error):
                    result.error = error
                    return result
                }
            }
        }
        #expect(decoder.isComplete == result.complete)
        return result
    }

    private func decode(_ text: String, limits: ChunkedLimits = ChunkedLimits()) -> Decoded {
        SplitFeeder.verify(Array(text.utf8)) { decode($0, limits: limits) }
    }

    private func error(_ text: String, limits: ChunkedLimits = ChunkedLimits()) -> HTTP1Error? {
        decode(text, limits: limits).error
    }

    @Test func decodesChunksWithoutCopying() {
        let body: [UInt8] = Array("5\r\nhello\r\n6\r\n world\r\n0\r\n\r\nNEXT".utf8)
        var decoder = ChunkedDecoder()
        body.withUnsafeBytes { raw in
            #expect(decoder.decode(raw) == .data(3..<8))
            let afterFirst = UnsafeRawBufferPointer(rebasing: raw[8...])
            #expect(decoder.decode(afterFirst) == .data(5..<11))
            let afterSecond = UnsafeRawBufferPointer(rebasing: raw[19...])
            #expect(decoder.decode(afterSecond) == .end(consumed: 7))
        }
        #expect(decoder.isComplete)
        #expect(decoder.finish() == nil)
    }

    @Test func decodesWholeByteByByteAndSplit() {
        let decoded = decode("5\r\nhello\r\n6\r\n world\r\n000\r\n\r\nGET")
        #expect(decoded == Decoded(data: Array("hello world".utf8), rest: Array("GET".utf8), complete: true))
    }

    @Test func acceptsUppercaseHexAndLeadingZeros() {
        #expect(decode("A\r\n0123456789\r\n0\r\n\r\n").data.count == 10)
        #expect(decode("000a\r\n0123456789\r\n0\r\n\r\n").data.count == 10)
    }

    @Test(arguments: [
        ("0x5\r\nhello\r\n0\r\n\r\n", HTTP1Error.Code.invalidChunkSize, 1),
        ("+5\r\nhello\r\n0\r\n\r\n", .invalidChunkSize, 0),
        ("-5\r\nhello\r\n0\r\n\r\n", .invalidChunkSize, 0),
        (" 5\r\nhello\r\n0\r\n\r\n", .invalidChunkSize, 0),
        ("5 \r\nhello\r\n0\r\n\r\n", .invalidChunkSize, 1),
        ("5\t;a\r\nhello\r\n0\r\n\r\n", .invalidChunkSize, 1),
        ("\r\nhello\r\n0\r\n\r\n", .invalidChunkSize, 0),
        ("g\r\n", .invalidChunkSize, 0),
        ("5\nhello\r\n0\r\n\r\n", .bareLF, 1),
        ("5\rhello\r\n0\r\n\r\n", .bareCR, 1),
        ("5\r\nhello\n0\r\n\r\n", .missingCRLFAfterChunk, 8),
        ("5\r\nhelloX\r\n0\r\n\r\n", .missingCRLFAfterChunk, 8),
        ("5\r\nhello\r0\r\n\r\n", .bareCR, 8),
        ("5\r\nhello\r\n0\n\r\n", .bareLF, 11),
        ("5\r\nhello\r\n0\r\n\n", .bareLF, 13),
        ("5\r\nhello\r\n0\r\n\rX", .bareCR, 13),
        ("5;\r\nhello\r\n0\r\n\r\n", .invalidChunkExtension, 2),
        ("5; a\r\nhello\r\n0\r\n\r\n", .invalidChunkExtension, 2),
        ("5;a =b\r\nhello\r\n0\r\n\r\n", .invalidChunkExtension, 3),
        ("5;a=\r\nhello\r\n0\r\n\r\n", .invalidChunkExtension, 4),
        ("5;a=b c\r\nhello\r\n0\r\n\r\n", .invalidChunkExtension, 5),
        ("5;a=\"b\r\nhello\r\n0\r\n\r\n", .invalidChunkExtension, 6),
        ("5;a=\"b\"c\r\nhello\r\n0\r\n\r\n", .invalidChunkExtension, 7),
        ("5;a\nhello\r\n0\r\n\r\n", .bareLF, 3),
        ("5;a=\"\\\u{1}\"\r\nhello\r\n0\r\n\r\n", .invalidChunkExtension, 6),
        ("5\r\nhello\r\n0\r\nTrailer : x\r\n\r\n", .whitespaceBeforeColon, 20),
        ("5\r\nhello\r\n0\r\nA: 1\r\n folded\r\n\r\n", .obsFold, 19),
        ("5\r\nhello\r\n0\r\n folded\r\n\r\n", .obsFold, 13),
        ("5\r\nhello\r\n0\r\nA: \u{0}\r\n\r\n", .invalidFieldValue, 16),
        ("5\r\nhello\r\n0\r\n: x\r\n\r\n", .emptyFieldName, 13),
    ])
    func rejects(text: String, code: HTTP1Error.Code, offset: Int) {
        #expect(error(text) == HTTP1Error(code, offset: offset))
    }

    @Test func acceptsExtensionSyntax() {
        let body = "5;a;b=c;d=\"q \\\" ;x\";e=\"\"\r\nhello\r\n0;last=1\r\n\r\n"
        #expect(decode(body) == Decoded(data: Array("hello".utf8), complete: true))
    }

    @Test func chunkSizeOverflowIsCheckedAgainstTheLimit() {
        // 16 hex digits already exceed the default 2^62; with no limit, the 17th digit overflows 64 bits.
        #expect(error("FFFFFFFFFFFFFFFF\r\n") == HTTP1Error(.chunkSizeOverflow, offset: 15))
        let unlimited = ChunkedLimits(maxChunkSize: .max)
        #expect(decode("FFFFFFFFFFFFFFFF\r\n", limits: unlimited).error == nil)
        #expect(error("FFFFFFFFFFFFFFFFF\r\n", limits: unlimited) == HTTP1Error(.chunkSizeOverflow, offset: 16))
        #expect(error("10000000000000000\r\n", limits: unlimited) == HTTP1Error(.chunkSizeOverflow, offset: 16))
        #expect(error("4000000000000001\r\n") == HTTP1Error(.chunkSizeOverflow, offset: 15))
        // Exactly the limit is accepted (the data simply has not arrived).
        #expect(decode("4000000000000000\r\n").error == nil)
        let small = ChunkedLimits(maxChunkSize: 16)
        #expect(decode("10\r\n0123456789abcdef\r\n0\r\n\r\n", limits: small).complete)
        #expect(error("11\r\n", limits: small) == HTTP1Error(.chunkSizeOverflow, offset: 1))
        let zeros = String(repeating: "0", count: 32)
        #expect(decode(zeros + "5\r\nhello\r\n0\r\n\r\n").error == HTTP1Error(.chunkSizeOverflow, offset: 32))
        #expect(decode(String(zeros.dropFirst()) + "5\r\nhello\r\n0\r\n\r\n").complete)
    }

    @Test func extensionBytesAreCappedOverTheWholeBody() {
        let limits = ChunkedLimits(maxExtensionBytes: 8)
        // ";abc=def" is 8 bytes: allowed once, the next byte of extension is one too many.
        #expect(decode("1;abc=def\r\nx\r\n0\r\n\r\n", limits: limits).complete)
        #expect(error("1;abc=defg\r\nx\r\n0\r\n\r\n", limits: limits) == HTTP1Error(.chunkExtensionTooLong, offset: 9))
        #expect(
            error("1;abcd\r\nx\r\n1;efgh\r\ny\r\n0\r\n\r\n", limits: limits)
                == HTTP1Error(.chunkExtensionTooLong, offset: 15)
        )
        #expect(
            error("1;a\r\nx\r\n0\r\n\r\n", limits: ChunkedLimits(maxExtensionBytes: 0))
                == HTTP1Error(.chunkExtensionTooLong, offset: 1)
        )
    }

    @Test func trailersAreValidatedBoundedAndDropped() {
        let body = "1\r\nx\r\n0\r\nVary: *\r\nX-Checksum: abc\r\n\r\n"
        #expect(decode(body) == Decoded(data: Array("x".utf8), complete: true))
        // Trailer section = "Vary: *\r\nX-Checksum: abc\r\n\r\n" = 28 bytes.
        #expect(decode(body, limits: ChunkedLimits(maxTrailerBytes: 28)).complete)
        #expect(
            decode(body, limits: ChunkedLimits(maxTrailerBytes: 27)).error == HTTP1Error(.trailerTooLarge, offset: 36)
        )
        #expect(decode(body, limits: ChunkedLimits(maxTrailerFields: 2)).complete)
        #expect(
            decode(body, limits: ChunkedLimits(maxTrailerFields: 1)).error == HTTP1Error(.tooManyFields, offset: 18)
        )
        #expect(HTTP1Error.Code.trailerTooLarge.suggestedStatus == 431)
    }

    @Test func finishReportsTruncation() {
        var decoder = ChunkedDecoder()
        #expect(Array("5\r\nhel".utf8).withUnsafeBytes { decoder.decode($0) } == .data(3..<6))
        #expect(decoder.finish() == HTTP1Error(.truncatedBody, offset: 6))
        #expect(!decoder.isComplete)
    }

    @Test func staysFailedAfterAnError() {
        var decoder = ChunkedDecoder()
        let error = HTTP1Error(.invalidChunkSize, offset: 0)
        #expect(Array("z".utf8).withUnsafeBytes { decoder.decode($0) } == .error(error))
        #expect(Array("0\r\n\r\n".utf8).withUnsafeBytes { decoder.decode($0) } == .error(error))
        #expect(decoder.finish() == error)
    }

    @Test func largeChunkDataArrivesAsRangesOfEachSpan() {
        var decoder = ChunkedDecoder()
        let size = 100_000
        let head = ChunkedEncoder.sizeLine(for: size).bytes
        var delivered = 0
        head.withUnsafeBytes { #expect(decoder.decode($0) == .needMore) }
        let block = [UInt8](repeating: 0x61, count: 4096)
        while delivered < size {
            let span = min(block.count, size - delivered)
            let action = block.withUnsafeBytes { decoder.decode(UnsafeRawBufferPointer(rebasing: $0[0..<span])) }
            #expect(action == .data(0..<span))
            delivered += span
        }
        let tail = ChunkedEncoder.dataTerminator + ChunkedEncoder.lastChunk
        #expect(tail.withUnsafeBytes { decoder.decode($0) } == .end(consumed: 7))
    }
}
