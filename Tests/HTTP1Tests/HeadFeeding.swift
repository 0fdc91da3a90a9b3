@testable import HTTP1

/// Drives head parsers over spans.
enum HeadFeeding {
    static func request(
        _ chunks: [[UInt8]],
        parser: RequestHeadParser = RequestHeadParser()
    ) -> HeadOutcome<RequestHead> {
        var parser = parser
        return run(chunks) { parser.feed($0) }
    }

    static func response(
        _ chunks: [[UInt8]],
        parser: ResponseHeadParser = ResponseHeadParser()
    ) -> HeadOutcome<ResponseHead> {
        var parser = parser
        return run(chunks) { parser.feed($0) }
    }

    private static func run<Head>(
        _ chunks: [[UInt8]],
        _ feed: (UnsafeRawBufferPointer) -> HeadParseResult<Head>
    ) -> HeadOutcome<Head> {
        var found: Head?
        var rest: [UInt8] = []
        for chunk in chunks {
            if found != nil {
                rest += chunk
                continue
            }
            let result = chunk.withUnsafeBytes { feed($0) }
            switch result {
            case .needMore:
                continue
            case .complete(let head, let consumed):
                precondition(consumed >= 0 && consumed <= chunk.count)
                found = head
                rest += chunk[consumed...]
            case .error(let error):
                return .error(error)
            }
        }
        if let found {
            return .complete(found, rest: rest)
        }
        return .needMore
    }

    /// Parses a complete request head or records a failure.
    static func requestHead(_ text: String) -> RequestHead? {
        request([Array(text.utf8)]).head
    }

    /// Parses a complete response head or records a failure.
    static func responseHead(_ text: String) -> ResponseHead? {
        response([Array(text.utf8)]).head
    }
}
