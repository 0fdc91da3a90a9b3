import HTTP1
import Multipart
import Policy

/// One request/response on a client connection: the head, how its body is forwarded, the upstream
/// connection carrying it, and the response coming back.
final class Exchange {
    enum BodyMode {
        /// Relayed as it came (Content-Length bodies byte for byte; chunked bodies re-chunked).
        case passthrough(chunked: Bool)
        /// Parsed, run through the route's policy, and re-encoded with a fresh boundary, sent chunked.
        case rewrite(any BodyRewriter)
    }

    let head: RequestHead
    let framing: RequestFraming
    let route: RouteConfiguration
    var decoder: BodyDecoder
    /// Non-nil when the body is re-encoded.
    let rewrite: (any BodyRewriter)?
    /// Identifies the request in audit and report-only lines.
    private let id: RequestID
    /// The id's text (made when a line needs it, not for every request).
    var requestID: String { id.description }
    /// The request was sent again on a new connection after a reused one failed under it (once at most).
    var retried = false
    /// For a passed-through body: re-chunk it (the client sent it chunked).
    let chunkedPassthrough: Bool
    /// Decoded body bytes so far (the route's body_bytes limit applies to these).
    var bodyBytes: Int64 = 0
    /// The client's body was read to its end and passed (set with ``requestDone`` in stream mode; before
    /// the spool is sent in spool mode).
    var bodyReceived = false
    /// The whole request, final chunk included, is in the upstream's output buffer.
    var requestDone = false
    var upstream: UpstreamConnection?
    /// `forward: spool`: the body is held here until it passed, and the upstream is opened only then.
    var spool: Spool?
    /// The route's upstream settings, as the worker had them when the head arrived.
    var routeUpstream: RouteUpstream?
    /// Where body bytes go while the body is read.
    var bodySink: (any BodySink)? { spool ?? upstream }
    var responseParser = ResponseHeadParser()
    /// The response's status, once its head was parsed (the head itself is not kept: only its status is read
    /// later, and a stored head was copied, three references counted, at each check).
    var responseStatus: Int?
    var responseDecoder: BodyDecoder?
    /// The response body goes to the client chunked (the upstream sent it chunked).
    var responseChunked = false
    var responseDone = false
    /// Interim (1xx) responses relayed to the client (one more once the rest are dropped).
    var interimResponses = 0
    /// Bytes of the response (head included) were written to the client.
    var responseStarted = false
    /// The upstream answered before the request body was complete.
    var earlyResponse = false
    /// The upstream connection may carry another request afterwards.
    var upstreamReusable = true
    /// ``rewrite`` as a ``PolicyRewriter`` the connection may renew for its next body, when it is one.
    var renewable: PolicyRewriter?
    /// The route's metric handles.
    var metrics: RouteMetrics?
    /// Body bytes handed to the upstream (re-encoded, framing excluded), for `partgate_body_bytes_out_total`.
    var forwardedBytes: Int64 = 0
    /// When the request went to an upstream connection (monotonic ns), for the upstream latency.
    var upstreamStarted: UInt64 = 0
    /// The upstream's `response_timeout`, from the settings the request started under (set with ``upstream``).
    var responseTimeout = LoopTimeout.sixtySeconds
    /// The exchange's bytes and normalised flags were counted (once, whichever way it ends).
    var metricsRecorded = false
    /// The route's `idle_timeout`: the longest the client may leave its body unsent, or its response unread,
    /// while the exchange is under way.
    let idle: LoopTimeout

    init(head: RequestHead, framing: RequestFraming, route: RouteConfiguration, body: BodyMode, requestID: RequestID) {
        self.id = requestID
        self.head = head
        self.framing = framing
        self.route = route
        self.idle = LoopTimeout(route.limits.idleTimeout)
        self.decoder = BodyDecoder(framing: framing.body)
        switch body {
        case .passthrough(let chunked):
            chunkedPassthrough = chunked
            rewrite = nil
        case .rewrite(let rewriter):
            chunkedPassthrough = false
            rewrite = rewriter
        }
    }
}
