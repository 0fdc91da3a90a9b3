import CEventTLS
import HTTP1
import Multipart
import Policy

extension ClientConnection {
    /// Feeds input chains to the head parser until a head completes.
    func readHead() {
        defer { reader?.refresh() }
        while phase == .head, let chain = EvBuffer.firstChain(input) {
            let wasIdle = heads.isIdle
            switch heads.feed(chain) {
            case .needMore:
                EvBuffer.drain(input, chain.count)
                if wasIdle && !heads.isIdle { arm(worker.settings.headerTimeout) }
            case .complete(let head, let consumed):
                EvBuffer.drain(input, consumed)
                arm(nil)
                start(head)
            case .error(let error):
                answer(Problem(error.suggestedStatus, error.code.name))
                return
            }
        }
    }

    /// Validates a head, picks the route and the upstream, and starts forwarding.
    private func start(_ head: RequestHead) {
        let framing: RequestFraming
        let host: String
        do {
            framing = try RequestFraming(analyzing: head)
            host = Self.hostWithoutPort(try head.validatedHost() ?? "")
        } catch {
            answer(Problem(error.suggestedStatus, error.code.name))
            return
        }
        if let name = HeaderLookalike.first(in: head) {
            answer(Problem(400, "ambiguous_header_name", detail: "the field name '\(name)' imitates a framing field"))
            return
        }
        if head.isConnect {
            answer(Problem(405, "connect_not_allowed", detail: "partgate is a reverse proxy"))
            return
        }
        // An absolute-form target with an empty path (`http://h?q`) has the path `/` (RFC 9110 §4.2.3), as
        // in the origin-form sent upstream.
        let path = head.target.form == .absolute && head.target.path.isEmpty ? "/" : String(head.target.path)
        guard let route = worker.settings.routes.first(where: {
            $0.match.matches(host: host, path: path, method: head.method)
        }) else {
            answer(Problem(404, "no_route", detail: "no route matches this request"))
            return
        }
        guard let upstreamSettings = worker.settings.upstreams[route.upstream] else {
            answer(Problem(502, "no_upstream"))
            return
        }
        if case .contentLength(let length) = framing.body, length > UInt64(route.limits.bodyBytes) {
            answer(Problem(413, "limit_body_bytes", detail: "the body exceeds \(route.limits.bodyBytes) bytes"))
            return
        }
        let body: Exchange.BodyMode
        switch bodyMode(head, framing: framing, route: route) {
        case .success(let mode): body = mode
        case .failure(let problem):
            answer(problem)
            return
        }
        let exchange = Exchange(head: head, framing: framing, route: route, body: body,
                                requestID: worker.nextRequestID())
        self.exchange = exchange
        exchange.spool = makeSpool(for: exchange)
        if !framing.keepAlive || worker.draining { closeAfterExchange = true }
        if framing.expectsContinue, !exchange.decoder.isComplete {
            EvBuffer.add(output, Array("HTTP/1.1 100 Continue\r\n\r\n".utf8))
        }
        if exchange.spool != nil {  // forward: spool: the upstream is opened once the body passed
            phase = .body
            pumpBody()
            return
        }
        guard let upstream = worker.pool.take(upstreamSettings.name)
            ?? UpstreamConnection(loop: worker.loop, settings: upstreamSettings, buffers: worker.settings.buffers)
        else {
            answer(Problem(502, "upstream_unavailable"))
            return
        }
        upstream.delegate = self
        upstream.requests += 1
        exchange.upstream = upstream
        upstream.write(upstreamHead(exchange))
        phase = .body
        pumpBody()
    }

    private func bodyMode(
        _ head: RequestHead, framing: RequestFraming, route: RouteConfiguration
    ) -> Result<Exchange.BodyMode, Problem> {
        let contentType: String?
        do {
            contentType = try head.singleContentType()
        } catch {
            return .failure(Problem(error.suggestedStatus, error.code.name))
        }
        let chunked = framing.body == .chunked
        let hasBody = framing.body != .none && framing.body != .contentLength(0)
        guard route.multipart == .rewrite else { return .success(.passthrough(chunked: chunked)) }
        guard let contentType else {
            return hasBody && route.otherBodies == .reject
                ? .failure(Problem(415, "content_type_missing", detail: "this route takes multipart/form-data bodies"))
                : .success(.passthrough(chunked: chunked))
        }
        do {
            let parsed = try MultipartContentType.parse(contentType)
            let parser = MultipartParser(boundary: parsed.boundary, limits: route.limits.multipartLimits,
                                         strictness: route.strictness)
            let rewriter: any BodyRewriter = route.audit
                ? PolicyRewriter<SHA256Digest>(parser: parser, route: route)
                : PolicyRewriter<NoPartDigest>(parser: parser, route: route)
            return .success(.rewrite(rewriter))
        } catch {
            if error.reason == .flag(.notMultipartFormData) || error.reason == .flag(.contentTypeSyntax) {
                if hasBody && route.otherBodies == .reject {
                    return .failure(Problem(415, "other_body", detail: "this route takes multipart/form-data bodies"))
                }
                return .success(.passthrough(chunked: chunked))
            }
            return .failure(Problem(400, error.name, detail: "the multipart Content-Type is ambiguous"))
        }
    }

    /// The request head as the upstream gets it: origin-form target, HTTP/1.1, hop-by-hop fields removed,
    /// forwarding fields added, and for a rewritten body the new Content-Type and chunked framing (a spooled
    /// body: its exact Content-Length instead).
    func upstreamHead(_ exchange: Exchange) -> [UInt8] {
        let head = exchange.head
        var removing = exchange.rewrite != nil ? Self.rewriteRemovals : Self.forwardRemovals
        if exchange.spool != nil { removing.insert("content-length") }
        if head.contains("connection") { removing.formUnion(head.hopByHopFieldNames) }
        var adding: [HTTPField] = []
        let forwardedFor = head.values("x-forwarded-for") + [peer.host]
        adding.append(HTTPField(name: "X-Forwarded-For", value: forwardedFor.joined(separator: ", ")))
        adding.append(HTTPField(name: "X-Forwarded-Proto", value: isTLS ? "https" : "http"))
        let via = head.values("via") + ["\(head.version.major).\(head.version.minor) partgate"]
        adding.append(HTTPField(name: "Via", value: via.joined(separator: ", ")))
        if let rewrite = exchange.rewrite {
            adding.append(HTTPField(name: "Content-Type", value: rewrite.contentType))
        }
        if let spool = exchange.spool {
            adding.append(HTTPField(name: "Content-Length", value: String(spool.length)))
        } else if exchange.rewrite != nil || exchange.chunkedPassthrough {
            adding.append(HTTPField(name: "Transfer-Encoding", value: "chunked"))
        }
        return head.serialized(target: head.target.originForm, version: .http1_1, removing: removing, adding: adding)
    }

    /// Fields never forwarded as received: hop-by-hop ones, Expect (partgate answers 100-continue itself),
    /// and the forwarding fields partgate rewrites.
    static let forwardRemovals: Set<String> = RequestHead.standardHopByHopFieldNames.union(
        ["expect", "x-forwarded-for", "x-forwarded-proto", "via"])
    /// The same plus the framing of a re-encoded body.
    static let rewriteRemovals: Set<String> = forwardRemovals.union(["content-length", "content-type"])

    static func hostWithoutPort(_ authority: String) -> String {
        if authority.hasPrefix("[") {
            return String(authority.prefix { $0 != "]" }.dropFirst())
        }
        return String(authority.prefix { $0 != ":" })
    }
}
