import HTTP1
import Multipart
import Policy

/// The checks a request head goes through before any body byte is read, and the route it goes to: pure
/// functions shared by ``ClientConnection`` and `partgate rewrite`, so that both refuse exactly the same
/// requests with exactly the same ``Problem``.
///
/// In order: ``checkHead(_:)`` (framing, Host, look-alike field names, CONNECT), ``route(for:_:in:)``
/// (first match wins; nil is ``noRoute``), ``checkRouteLimits(_:headBytes:route:)`` (the route's
/// `header_bytes` and `header_count`), then ``decideBody(_:framing:route:)`` (the declared length against
/// `body_bytes`, then how the body is forwarded: other bodies, ambiguous Content-Types). The engine checks that
/// the route's upstream exists before the last one.
package enum RequestAdmission {
    /// A head that passed ``checkHead(_:)``.
    package struct CheckedHead: Sendable, Equatable {
        /// How the body is delimited and the connection semantics.
        package var framing: RequestFraming
        /// The host to route on, without port.
        package var host: String
        /// The path to route on (without the query), `/` for an absolute-form target with an empty path.
        package var path: String
    }

    /// How a request body is forwarded.
    package enum Body {
        /// Relayed as it came (Content-Length bodies byte for byte; chunked bodies re-chunked).
        case passthrough(chunked: Bool)
        /// Parsed with this parser (the client's boundary, the route's limits and strictness), run through the
        /// route's policy and re-encoded.
        case rewrite(MultipartParser)
    }

    /// The answer when no route takes the request.
    package static let noRoute = Problem(404, "no_route", detail: "no route matches this request")

    /// Framing, Host, look-alike field names and CONNECT.
    /// - Parameter head: a parsed request head.
    /// - Returns: the framing and what to route on.
    /// - Throws: the ``Problem`` to answer with.
    package static func checkHead(_ head: RequestHead) throws(Problem) -> CheckedHead {
        let framing: RequestFraming
        let host: String
        do {
            framing = try RequestFraming(analyzing: head)
            host = try head.validatedHostWithoutPort()
        } catch {
            throw Problem(http: error)
        }
        if let name = HeaderLookalike.first(in: head) {
            throw Problem(400, "ambiguous_header_name", detail: "the field name '\(name)' imitates a framing field")
        }
        if head.isConnect {
            throw Problem(405, "connect_not_allowed", detail: "partgate is a reverse proxy")
        }
        // An absolute-form target with an empty path (`http://h?q`) has the path `/` (RFC 9110 §4.2.3), as
        // in the origin-form sent upstream.
        let path = head.target.form == .absolute && head.target.path.isEmpty ? "/" : head.target.pathString
        return CheckedHead(framing: framing, host: host, path: path)
    }

    /// The first route whose match takes the request.
    /// - Parameters:
    ///   - head: the request head.
    ///   - checked: what ``checkHead(_:)`` returned for it.
    ///   - routes: the routes in configuration order.
    /// - Returns: the route, or nil (answer ``noRoute``).
    package static func route(
        for head: RequestHead, _ checked: CheckedHead, in routes: [RouteConfiguration]
    ) -> RouteConfiguration? {
        routes.first { $0.match.matches(host: checked.host, path: checked.path, method: head.method) }
    }

    /// How a body is forwarded, and on a `report_only: true` route the refusal an enforcing route would
    /// have answered instead.
    package struct BodyDecision {
        /// How the body is forwarded.
        package var body: Body
        /// Set on a report-only route whose policy refuses the request (`other_bodies: reject`): the body is
        /// relayed as on a route without rules, and this is logged as what would have happened.
        package var wouldRefuse: Problem?

        /// The two parts, moved out (binding `body`'s parser from a decision copied the parser).
        package consuming func split() -> (body: Body, wouldRefuse: Problem?) {
            (body, wouldRefuse)
        }
    }

    /// How the body is forwarded (``decideBody(_:framing:route:)`` without the would-be refusal).
    /// - Parameters:
    ///   - head: the request head.
    ///   - framing: its framing (from ``checkHead(_:)``).
    ///   - route: the route it goes to.
    /// - Throws: the ``Problem`` to answer with.
    package static func body(
        _ head: RequestHead, framing: RequestFraming, route: RouteConfiguration
    ) throws(Problem) -> Body {
        try decideBody(head, framing: framing, route: route).body
    }

    /// The declared body length against the route's `body_bytes`, then how the body is forwarded.
    ///
    /// A route set to `multipart: passthrough` relays every body. Otherwise a multipart/form-data body is
    /// rewritten; a body without Content-Type or with another type is refused with 415 under
    /// `other_bodies: reject` and relayed otherwise; a multipart Content-Type that could be read two ways is
    /// refused with 400 naming its strict flag.
    ///
    /// On a `report_only: true` route the `other_bodies: reject` refusal is not enforced: the body is relayed
    /// as a route without rules relays it, and the refusal comes back as ``BodyDecision/wouldRefuse``. Limits
    /// and ambiguity checks (the declared length, an ambiguous multipart Content-Type) are enforced on every
    /// route: they are not policy, they keep partgate and the backend reading the same message.
    /// - Parameters:
    ///   - head: the request head.
    ///   - framing: its framing (from ``checkHead(_:)``).
    ///   - route: the route it goes to.
    /// - Throws: the ``Problem`` to answer with.
    package static func decideBody(
        _ head: RequestHead, framing: RequestFraming, route: RouteConfiguration
    ) throws(Problem) -> BodyDecision {
        let (body, wouldRefuse) = try decideBodyParts(head, framing: framing, route: route)
        return BodyDecision(body: body, wouldRefuse: wouldRefuse)
    }

    /// ``decideBody(_:framing:route:)`` as its two parts, made where the caller takes them: a decision split
    /// afterwards copied its parser out and destroyed the decision.
    static func decideBodyParts(
        _ head: RequestHead, framing: RequestFraming, route: RouteConfiguration
    ) throws(Problem) -> (body: Body, wouldRefuse: Problem?) {
        if case .contentLength(let length) = framing.body, length > UInt64(route.limits.bodyBytes) {
            throw Problem.bodyTooLarge(route.limits.bodyBytes)
        }
        let contentType: ArraySlice<UInt8>?
        do {
            contentType = try head.singleContentTypeBytes()
        } catch {
            throw Problem(http: error)
        }
        let chunked = framing.body == .chunked
        let hasBody = framing.body != .none && framing.body != .contentLength(0)
        guard route.multipart == .rewrite else { return (.passthrough(chunked: chunked), nil) }
        /// A body that is not multipart/form-data: relayed, unless the route refuses other bodies.
        func otherBody(_ problem: Problem) throws(Problem) -> (body: Body, wouldRefuse: Problem?) {
            guard hasBody && route.otherBodies == .reject else {
                return (.passthrough(chunked: chunked), nil)
            }
            guard route.reportOnly else { throw problem }
            return (.passthrough(chunked: chunked), problem)
        }
        guard let contentType else {
            return try otherBody(
                Problem(415, "content_type_missing", detail: "this route takes multipart/form-data bodies"))
        }
        do {
            // Parsed where the head holds it (`withUnsafeBytes` rethrows untyped: the outcome comes out as a Result).
            let parsed = try contentType.withUnsafeBytes { value in
                Result { () throws(MultipartError) in try MultipartContentType.parse(value) }
            }.get()
            return (
                .rewrite(
                    MultipartParser(
                        boundary: parsed.boundary, limits: route.limits.multipartLimits,
                        strictness: route.strictness)),
                nil)
        } catch {
            if error.reason == .flag(.notMultipartFormData) || error.reason == .flag(.contentTypeSyntax) {
                // Rack and formidable read `multipart/mixed` (formidable any type naming `multipart`) as a form:
                // relayed, its parts would reach them past this route's rules. Refused whatever other_bodies says.
                if route.hasPartPolicy, readsAsMultipart(contentType) {
                    let problem = Problem(415, "multipart_not_form_data",
                        detail: "a multipart body other than multipart/form-data cannot be checked against this route's rules")
                    guard route.reportOnly else { throw problem }
                    return (.passthrough(chunked: chunked), problem)
                }
                return try otherBody(Problem(415, "other_body", detail: "this route takes multipart/form-data bodies"))
            }
            throw Problem(400, error.name, detail: "the multipart Content-Type is ambiguous")
        }
    }

    /// Whether some backend parses a body of this Content-Type as multipart: it names `multipart` or has a
    /// `boundary` (ASCII case-insensitive, anywhere: formidable tests the whole value against `/multipart/i`).
    static func readsAsMultipart(_ value: ArraySlice<UInt8>) -> Bool {
        containsIgnoringCase(value, "multipart") || containsIgnoringCase(value, "boundary")
    }

    private static func containsIgnoringCase(_ value: ArraySlice<UInt8>, _ word: StaticString) -> Bool {
        let word = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        guard value.count >= word.count else { return false }
        var start = value.startIndex
        while start <= value.endIndex - word.count {
            var matched = 0
            while matched < word.count, value[start + matched] | 0x20 == word[matched] { matched += 1 }
            if matched == word.count { return true }
            start += 1
        }
        return false
    }
}
