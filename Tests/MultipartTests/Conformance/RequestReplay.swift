import HTTP1
import Multipart

/// Reads a full HTTP request the way the proxy does before the multipart parser sees a byte: the head
/// (``RequestHeadParser``), its framing (``RequestFraming``), Host, the single Content-Type, the
/// multipart Content-Type (``MultipartContentType``), then the body per its framing (``BodyDecoder``).
enum RequestReplay {
    /// A request whose head passed every check.
    struct Request {
        var boundary: Boundary
        /// The body per the declared framing (or every byte after the head, for a corrected replay).
        var body: [UInt8]
        /// What framing the body as declared runs into (nil when the declared length fits the bytes).
        var asSentProblem: String?
    }

    /// The request, or the name of the check that refused it before the body: `http1:<code>`,
    /// `content_type_missing` (no Content-Type field: the proxy answers 415 where a route requires
    /// multipart), or the ``StrictFlag`` of the Content-Type parser.
    static func read(_ bytes: [UInt8], replay: Replay) -> Result<Request, ReplayRejection> {
        var parser = RequestHeadParser()
        let head: RequestHead
        let consumed: Int
        switch bytes.withUnsafeBytes({ parser.feed($0) }) {
        case .complete(let parsed, let count):
            (head, consumed) = (parsed, count)
        case .needMore:
            return .failure(ReplayRejection("http1:truncated_head"))
        case .error(let error):
            return .failure(ReplayRejection(error))
        }
        let framing: RequestFraming
        let contentType: String?
        do throws(HTTP1Error) {
            framing = try RequestFraming(analyzing: head)
            _ = try head.validatedHost()
            contentType = try head.singleContentType()
        } catch {
            return .failure(ReplayRejection(error))
        }
        guard let contentType else { return .failure(ReplayRejection("content_type_missing")) }
        let boundary: Boundary
        do {
            boundary = try MultipartContentType.parse(contentType).boundary
        } catch {
            return .failure(ReplayRejection(error.name))
        }
        let rest = Array(bytes[consumed...])
        let framed = decode(rest, framing.body)
        switch replay.contentLength {
        case .asSent:
            return .success(Request(boundary: boundary, body: framed.body, asSentProblem: framed.problem))
        case .corrected:
            return .success(Request(boundary: boundary, body: rest, asSentProblem: framed.problem))
        }
    }

    /// Frames the bytes after a head as declared: the body, and what goes wrong if anything does —
    /// `http1:truncated_body` if the input ends first, or the next-request parser's error for bytes
    /// left after the body when they are not just empty lines.
    static func decode(_ rest: [UInt8], _ framing: BodyFraming) -> (body: [UInt8], problem: String?) {
        var decoder = BodyDecoder(framing: framing)
        var body: [UInt8] = []
        var start = 0
        while true {
            let action = rest[start...].withUnsafeBytes { decoder.decode($0) }
            switch action {
            case .data(let range):
                body += rest[(start + range.lowerBound)..<(start + range.upperBound)]
                start += range.upperBound
            case .needMore:
                return (body, decoder.finish().map { "http1:" + $0.code.name })
            case .end(let framingBytes):
                return (body, nextRequestError(Array(rest[(start + framingBytes)...])))
            case .error(let error):
                return (body, "http1:" + error.code.name)
            }
        }
    }

    /// The error a fresh head parser reports for `leftover` followed by the end of the connection, or nil
    /// when it holds nothing but complete empty lines (skipped before a request line, RFC 9112 §2.2).
    static func nextRequestError(_ leftover: [UInt8]) -> String? {
        var parser = RequestHeadParser()
        switch leftover.withUnsafeBytes({ parser.feed($0) }) {
        case .complete:
            return "http1:pipelined_request"
        case .error(let error):
            return "http1:" + error.code.name
        case .needMore:
            return parser.finish().map { "http1:" + $0.code.name }
        }
    }
}

/// The name of the check that refused a request before its body.
struct ReplayRejection: Error, Equatable {
    var name: String

    init(_ name: String) { self.name = name }
    init(_ error: HTTP1Error) { self.name = "http1:" + error.code.name }
}
