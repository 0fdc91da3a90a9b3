import HTTP1
import Multipart
import Policy
import ProxyEngine

/// One pass of `partgate rewrite` over a request file, doing what the engine does with a request that
/// arrives on a connection: the head parser under the configuration's head limits, ``RequestAdmission``
/// (framing, Host, look-alike names, CONNECT, the route, the declared length, how the body is forwarded),
/// the body decoder with the route's `body_bytes`, and for a rewritten body the engine's own
/// ``BodyRewriter`` (parser → policy → canonical encoder), refused exactly where the engine refuses.
///
/// Without a writer it only measures (the first pass): whether the request is forwarded, the body's length
/// and the audit records. With one it prints the upstream head and body (the second pass).
struct RewritePass {
    /// What the pass found.
    enum Outcome {
        /// The request goes upstream with a body of `bodyBytes` bytes (as forwarded, before chunk framing);
        /// `trailingBytes` followed the request in the file.
        case forwarded(route: RouteConfiguration, bodyBytes: Int64, trailingBytes: Int)
        /// The proxy answers the client with this problem (nil route: refused before a route was chosen).
        case refused(Problem, route: RouteConfiguration?)
        /// The file ends inside the request: the proxy would wait for the rest and answer nothing.
        case truncated(HTTP1Error)
        /// The file could not be read.
        case readFailed(String)
    }

    private enum Phase {
        case head(RequestHeadParser)
        case body(BodyDecoder)
        case after(trailing: Int)
    }

    let settings: RewriteSettings
    /// The second pass's output; nil in the first pass.
    private(set) var writer: UpstreamWriter?
    /// The re-encoded body's length from the first pass, for a `Content-Length` head.
    private let knownLength: Int64?
    /// Receives each audit record with its route's name as parts complete or are refused.
    private let onAudit: (PartAuditRecord, String) -> Void
    /// Receives the refusal a `report_only: true` route did not enforce.
    private let onWouldRefuse: (ReportOnlyRefusal) -> Void

    private var phase: Phase
    private var route: RouteConfiguration?
    private var rewriter: (any BodyRewriter)?
    private var bodyBytes: Int64 = 0
    private var forwardedBytes: Int64 = 0
    private var outcome: Outcome?

    /// - Parameters:
    ///   - settings: the configuration and options.
    ///   - writer: where the second pass prints; nil for the first.
    ///   - knownLength: the forwarded body's length measured by the first pass (second pass only).
    ///   - onAudit: gets audit records (wanted from the first pass only).
    ///   - onWouldRefuse: gets the refusal a report-only route did not enforce (first pass only).
    init(
        settings: RewriteSettings, writer: UpstreamWriter?, knownLength: Int64? = nil,
        onAudit: @escaping (PartAuditRecord, String) -> Void = { _, _ in },
        onWouldRefuse: @escaping (ReportOnlyRefusal) -> Void = { _ in }
    ) {
        self.settings = settings
        self.writer = writer
        self.knownLength = knownLength
        self.onAudit = onAudit
        self.onWouldRefuse = onWouldRefuse
        phase = .head(RequestHeadParser(limits: settings.headLimits))
    }

    /// Reads the whole file (the request and whatever follows it).
    mutating func run(_ input: InputFile) -> Outcome {
        let readError = input.forEachChunk { chunk in feed(chunk) }
        if let readError { return .readFailed(readError) }
        if let outcome { return outcome }
        switch phase {
        case .head(let parser):
            return .truncated(parser.finish() ?? HTTP1Error(.truncatedHead, offset: 0))
        case .body(var decoder):
            return .truncated(decoder.finish() ?? HTTP1Error(.truncatedBody))
        case .after(let trailing):
            return .forwarded(route: route!, bodyBytes: forwardedBytes, trailingBytes: trailing)
        }
    }

    /// Feeds one chunk of the file; false once the outcome is known.
    private mutating func feed(_ chunk: UnsafeRawBufferPointer) -> Bool {
        var rest = chunk
        if case .head(var parser) = phase {
            switch parser.feed(rest) {
            case .needMore:
                phase = .head(parser)
                return true
            case .error(let error):
                return refuse(Problem(http: error))
            case .complete(let head, let consumed):
                guard start(head, headBytes: parser.completedHeadBytes) else { return false }
                rest = UnsafeRawBufferPointer(rebasing: rest[consumed...])
            }
        }
        if case .after(let trailing) = phase {
            phase = .after(trailing: trailing + rest.count)
            return true
        }
        guard case .body(var decoder) = phase else { preconditionFailure("a body phase after the head") }
        while true {
            let action = decoder.decode(rest)
            phase = .body(decoder)
            switch action {
            case .needMore:
                return true
            case .data(let range):
                bodyBytes += Int64(range.count)
                if bodyBytes > route!.limits.bodyBytes { return refuse(Problem.bodyTooLarge(route!.limits.bodyBytes)) }
                guard forward(UnsafeRawBufferPointer(rebasing: rest[range]), in: chunk) else { return false }
                rest = UnsafeRawBufferPointer(rebasing: rest[range.upperBound...])
            case .end(let framing):
                guard finishBody() else { return false }
                phase = .after(trailing: rest.count - framing)
                return true
            case .error(let error):
                return refuse(Problem(http: error))
            }
        }
    }

    /// The head checks, the route and the body mode; writes the upstream head. False when refused.
    private mutating func start(_ head: RequestHead, headBytes: Int) -> Bool {
        let checked: RequestAdmission.CheckedHead
        let body: RequestAdmission.Body
        do {
            checked = try RequestAdmission.checkHead(head)
            guard let route = settings.forcedRoute ?? RequestAdmission.route(for: head, checked, in: settings.routes)
            else { return refuse(RequestAdmission.noRoute) }
            self.route = route
            try RequestAdmission.checkRouteLimits(head, headBytes: headBytes, route: route)
            let decision = try RequestAdmission.decideBody(head, framing: checked.framing, route: route)
            body = decision.body
            if let problem = decision.wouldRefuse {
                onWouldRefuse(
                    ReportOnlyRefusal(
                        status: problem.status, flag: problem.name, route: route.name, request: "rewrite",
                        method: head.method, target: head.target.string))
            }
        } catch {
            return refuse(error)
        }
        let upstreamBody: UpstreamRequestHead.Body
        switch body {
        case .passthrough:
            // A spool route holds a relayed body too and sends it with its exact length, as the engine does
            // (--framing is for re-encoded bodies only).
            // A request without a body goes at once, with no spool and no Content-Length added (the engine's
            // ClientConnection+Spool).
            let hasBody = checked.framing.body != .none && checked.framing.body != .contentLength(0)
            upstreamBody = route!.forward == .spool && hasBody
                ? .spooled(length: knownLength ?? 0) : .relayed(checked.framing.body)
        case .rewrite(let parser):
            let rewriter = makeBodyRewriter(
                parser: parser, route: route!, digests: settings.audit || route!.audit, boundary: settings.boundary,
                uuid: settings.uuids.make)
            self.rewriter = rewriter
            let chunked = settings.framing(for: route!, body: checked.framing.body) == .chunked
            upstreamBody = .rewritten(boundary: rewriter.boundary, length: chunked ? nil : knownLength ?? 0)
        }
        phase = .body(BodyDecoder(framing: checked.framing.body))
        let bytes = UpstreamRequestHead.make(
            head, client: settings.client, tls: settings.clientTLS, body: upstreamBody,
            defaultHost: settings.defaultHosts[route!.upstream] ?? "")
        switch upstreamBody {
        case .relayed(let framing): writer?.begin(head: bytes, chunked: framing == .chunked)
        case .spooled: writer?.begin(head: bytes, chunked: false)
        case .rewritten(_, let length): writer?.begin(head: bytes, chunked: length == nil)
        }
        return true
    }

    /// Relays or re-encodes body bytes lying in `chunk`. False when refused.
    private mutating func forward(_ span: UnsafeRawBufferPointer, in chunk: UnsafeRawBufferPointer) -> Bool {
        guard let rewriter else {
            forwardedBytes += Int64(span.count)
            writer?.batch(span.count) { write in write(span) }
            return true
        }
        do {
            try rewriter.parse(span, in: chunk)
        } catch {
            if earlierRefusal(rewriter) == nil { rewriter.parserRefused(error) }
            reportAudit()
            return refuse(earlierRefusal(rewriter) ?? Problem(multipart: error))
        }
        return apply()
    }

    /// The body ended: closes the multipart body and the framing. False when refused.
    private mutating func finishBody() -> Bool {
        if let rewriter {
            do {
                try rewriter.finish()
            } catch {
                if earlierRefusal(rewriter) == nil { rewriter.parserRefused(error) }
                reportAudit()
                return refuse(earlierRefusal(rewriter) ?? Problem(multipart: error))
            }
            guard apply() else { return false }
        }
        writer?.end()
        return true
    }

    /// A refusal the policy or the encoder recorded earlier in the span the parser then failed on: it comes
    /// first in the body, so it is the answer, as in the engine.
    private func earlierRefusal(_ rewriter: any BodyRewriter) -> Problem? {
        if let rejection = rewriter.rejection { return Problem(rejection: rejection) }
        if let error = rewriter.recorder.encodingError { return Problem(encoding: error) }
        return nil
    }

    /// Writes what the rewriter recorded for the last call as one batch, as the engine does. False when
    /// the call refused the request.
    private mutating func apply() -> Bool {
        reportAudit()
        let rewriter = rewriter!
        if let rejection = rewriter.rejection { return refuse(Problem(rejection: rejection)) }
        let recorder = rewriter.recorder
        if let error = recorder.encodingError { return refuse(Problem(encoding: error)) }
        let total = recorder.outputCount
        forwardedBytes += Int64(total)
        writer?.batch(total) { write in
            recorder.scratch.withUnsafeBytes { scratch in
                for op in recorder.ops {
                    switch op {
                    case .move(let index, let count):
                        write(UnsafeRawBufferPointer(rebasing: recorder.chain![index..<(index + count)]))
                    case .scratch(let start, let count):
                        write(UnsafeRawBufferPointer(rebasing: scratch[start..<(start + count)]))
                    }
                }
            }
        }
        return true
    }

    /// Hands the records of the parts completed by the last call on (routes with `audit: true` or
    /// `report_only: true`, or `--audit`).
    private func reportAudit() {
        guard let rewriter, let route else { return }
        let audit = settings.audit || route.audit || route.reportOnly
        rewriter.drainParts { _, record in
            if audit, let record { onAudit(record, route.name) }
        }
    }

    private mutating func refuse(_ problem: Problem) -> Bool {
        outcome = .refused(problem, route: route)
        return false
    }
}
