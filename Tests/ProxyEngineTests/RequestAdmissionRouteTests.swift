import HTTP1
import Policy
import Testing

@testable import ProxyEngine

/// Admission decisions that depend on the route, without I/O: report-only routes do not enforce
/// `other_bodies: reject` (they report it), and a route's own `header_bytes`/`header_count` apply once the
/// route is known.
@Suite("Request admission: route-dependent checks")
struct RequestAdmissionRouteTests {
    /// The parsed head and its size as received.
    static func parse(_ text: String) throws -> (RequestHead, Int) {
        var parser = RequestHeadParser()
        let bytes = Array(text.utf8)
        guard case .complete(let head, _) = bytes.withUnsafeBytes({ parser.feed($0) }) else {
            throw RequestAdmissionTests.ParseFailure()
        }
        return (head, parser.completedHeadBytes)
    }

    static func route(reportOnly: Bool) -> RouteConfiguration {
        RouteConfiguration(
            name: "uploads", upstream: "u", reportOnly: reportOnly,
            rules: [Rule(name: "drop", match: RuleMatch(field: [try! Glob("x*")]), strip: true)])
    }

    static func decide(_ text: String, _ route: RouteConfiguration) throws -> Result<
        RequestAdmission.BodyDecision, Problem
    > {
        let (head, _) = try parse(text)
        do {
            let checked = try RequestAdmission.checkHead(head)
            return .success(try RequestAdmission.decideBody(head, framing: checked.framing, route: route))
        } catch {
            return .failure(error)
        }
    }

    static let json = "POST /upload HTTP/1.1\r\nHost: h\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n"
    static let untyped = "POST /upload HTTP/1.1\r\nHost: h\r\nContent-Length: 2\r\n\r\n"

    @Test func reportOnlyRelaysOtherBodiesAndSaysWhatWouldHaveHappened() throws {
        for (text, flag) in [(Self.json, "other_body"), (Self.untyped, "content_type_missing")] {
            guard case .failure(let enforced) = try Self.decide(text, Self.route(reportOnly: false)) else {
                Issue.record("an enforcing route relayed \(flag)")
                continue
            }
            #expect(enforced.status == 415 && enforced.name == flag)
            guard case .success(let decision) = try Self.decide(text, Self.route(reportOnly: true)) else {
                Issue.record("a report-only route refused \(flag)")
                continue
            }
            guard case .passthrough(chunked: false) = decision.body else {
                Issue.record("not relayed: \(decision.body)")
                continue
            }
            #expect(decision.wouldRefuse == enforced)
        }
    }

    /// Bodies that Rack, formidable or cgi parse as forms though they are not multipart/form-data: refused on a
    /// route with part policy even under `other_bodies: pass` (relayed, their parts would bypass the rules);
    /// relayed on a route without rules.
    @Test(arguments: [
        "multipart/mixed; boundary=b", "multipart/related; boundary=b", "Multipart/Alternative; boundary=b",
        "text/plain; x=multipart; boundary=b", "application/octet-stream; BOUNDARY=b", "multipart/mixed",
    ])
    func multipartLookingBodiesAreRefusedOnPolicyRoutes(_ contentType: String) throws {
        let text = "POST /upload HTTP/1.1\r\nHost: h\r\nContent-Type: \(contentType)\r\nContent-Length: 2\r\n\r\n"
        var passing = Self.route(reportOnly: false)
        passing.otherBodies = .pass
        guard case .failure(let problem) = try Self.decide(text, passing) else {
            Issue.record("\(contentType) was relayed past the rules")
            return
        }
        #expect(problem.status == 415 && problem.name == "multipart_not_form_data")
        var report = passing
        report.reportOnly = true
        guard case .success(let decision) = try Self.decide(text, report) else {
            Issue.record("a report-only route refused \(contentType)")
            return
        }
        #expect(decision.wouldRefuse == problem)
        let plain = RouteConfiguration(name: "plain", upstream: "u")
        guard case .success(let relayed) = try Self.decide(text, plain), case .passthrough = relayed.body else {
            Issue.record("a route without rules refused \(contentType)")
            return
        }
    }

    @Test func otherBodiesPassStillRelaysPlainTypes() throws {
        var passing = Self.route(reportOnly: false)
        passing.otherBodies = .pass
        for type in ["application/json", "text/plain; charset=utf-8", "application/x-www-form-urlencoded"] {
            let text = "POST /upload HTTP/1.1\r\nHost: h\r\nContent-Type: \(type)\r\nContent-Length: 2\r\n\r\n"
            guard case .success(let decision) = try Self.decide(text, passing), case .passthrough = decision.body else {
                Issue.record("\(type) was not relayed under other_bodies: pass")
                continue
            }
        }
    }

    @Test func reportOnlyStillRefusesAmbiguity() throws {
        let route = Self.route(reportOnly: true)
        let lookalike = "POST /upload HTTP/1.1\r\nHost: h\r\nContent_-Type: multipart/form-data; boundary=b\r\n"
            + "Content-Length: 2\r\n\r\n"
        let (head, _) = try Self.parse(lookalike)
        let expected = Problem(
            400, "ambiguous_header_name", detail: "the field name 'Content_-Type' imitates a framing field")
        #expect(throws: expected) {
            try RequestAdmission.checkHead(head)
        }
        let twoBoundaries = "POST /upload HTTP/1.1\r\nHost: h\r\n"
            + "Content-Type: multipart/form-data; boundary=a; boundary=b\r\nContent-Length: 2\r\n\r\n"
        guard case .failure(let problem) = try Self.decide(twoBoundaries, route) else {
            Issue.record("an ambiguous Content-Type was relayed on a report-only route")
            return
        }
        #expect(problem.status == 400)
        var limited = route
        limited.limits.bodyBytes = 1
        guard case .failure(let tooLarge) = try Self.decide(Self.json, limited) else {
            Issue.record("body_bytes was not enforced on a report-only route")
            return
        }
        #expect(tooLarge == Problem.bodyTooLarge(1))
    }

    @Test func aMultipartBodyOnAReportOnlyRouteIsRewrittenWithNothingToReport() throws {
        let text = "POST /upload HTTP/1.1\r\nHost: h\r\nContent-Type: multipart/form-data; boundary=b\r\n"
            + "Content-Length: 2\r\n\r\n"
        guard case .success(let decision) = try Self.decide(text, Self.route(reportOnly: true)),
            case .rewrite = decision.body
        else {
            Issue.record("not rewritten")
            return
        }
        #expect(decision.wouldRefuse == nil)
    }

    @Test func completedHeadBytesCountsTheWholeHead() throws {
        let text = "\r\nPOST /upload HTTP/1.1\r\nHost: h\r\nContent-Length: 2\r\n\r\n"
        var parser = RequestHeadParser()
        let bytes = Array(text.utf8) + Array("{}".utf8)
        // Byte by byte: the count spans every feed.
        var completed = false
        for index in bytes.indices where !completed {
            if case .complete(_, let consumed) = bytes[index...index].withUnsafeBytes({ parser.feed($0) }) {
                #expect(consumed == 1)
                completed = true
            }
        }
        #expect(completed)
        #expect(parser.completedHeadBytes == text.utf8.count)
    }

    @Test func routeHeaderLimitsApplyOnceTheRouteIsKnown() throws {
        let text = "POST /upload HTTP/1.1\r\nHost: h\r\nX-A: 1\r\nX-B: 2\r\nContent-Length: 0\r\n\r\n"
        let (head, size) = try Self.parse(text)
        #expect(size == text.utf8.count)
        var route = Self.route(reportOnly: false)
        try RequestAdmission.checkRouteLimits(head, headBytes: size, route: route)
        route.limits.headerBytes = size
        try RequestAdmission.checkRouteLimits(head, headBytes: size, route: route)
        route.limits.headerBytes = size - 1
        #expect(throws: Problem.self) { try RequestAdmission.checkRouteLimits(head, headBytes: size, route: route) }
        do {
            try RequestAdmission.checkRouteLimits(head, headBytes: size, route: route)
        } catch {
            #expect(error.status == 431 && error.name == "head_too_large")
        }
        route.limits.headerBytes = size
        route.limits.headerCount = 4
        try RequestAdmission.checkRouteLimits(head, headBytes: size, route: route)
        route.limits.headerCount = 3
        do {
            try RequestAdmission.checkRouteLimits(head, headBytes: size, route: route)
            Issue.record("four fields passed a limit of three")
        } catch {
            #expect(error.status == 431 && error.name == "too_many_fields")
        }
        // Report-only does not relax limits.
        route.reportOnly = true
        #expect(throws: Problem.self) { try RequestAdmission.checkRouteLimits(head, headBytes: size, route: route) }
    }
}
