import Multipart
@testable import Policy
import Testing

@Suite("Routes and limits")
struct RoutingTests {
    static func route(_ name: String, host: String = "*", prefix: String = "/", methods: Set<String>? = nil) throws
        -> RouteConfiguration
    {
        RouteConfiguration(
            name: name,
            match: RouteMatch(
                host: try Glob(host, caseInsensitive: true), pathPrefix: prefix,
                methods: methods), upstream: "up")
    }

    @Test func firstMatchingRouteWins() throws {
        let configuration = ProxyConfiguration(routes: [
            try Self.route("avatars-put", prefix: "/avatars", methods: ["PUT"]),
            try Self.route("avatars", prefix: "/avatars"),
            try Self.route("api", host: "api.example.com", prefix: "/"),
            try Self.route("fallback"),
        ])
        func pick(_ host: String, _ path: String, _ method: String) -> String? {
            configuration.route(host: host, path: path, method: method)?.name
        }
        #expect(pick("x", "/avatars", "PUT") == "avatars-put")
        #expect(pick("x", "/avatars/1", "POST") == "avatars")
        #expect(pick("API.Example.com", "/upload", "POST") == "api")
        #expect(pick("x", "/avatarsX", "POST") == "fallback")
        #expect(pick("x", "/avatars?size=2", "post") == "avatars")
    }

    @Test func pathPrefixesMatchOnSegmentBoundaries() {
        let match = RouteMatch(pathPrefix: "/avatars")
        #expect(match.matches(host: "h", path: "/avatars", method: "POST"))
        #expect(match.matches(host: "h", path: "/avatars/", method: "POST"))
        #expect(match.matches(host: "h", path: "/avatars/a/b", method: "POST"))
        #expect(match.matches(host: "h", path: "/avatars?x=1", method: "POST"))
        #expect(!match.matches(host: "h", path: "/avatarsX", method: "POST"))
        #expect(!match.matches(host: "h", path: "/avatar", method: "POST"))
        let slash = RouteMatch(pathPrefix: "/files/")
        #expect(slash.matches(host: "h", path: "/files/x", method: "GET"))
        #expect(!slash.matches(host: "h", path: "/files", method: "GET"))
        #expect(RouteMatch().matches(host: "anything", path: "/", method: "DELETE"))
    }

    /// Failed before: a backend that decodes `%75` or merges `//` served `/upload` to a request routed to `/`.
    @Test func pathsMatchAsABackendNormalisesThem() {
        let match = RouteMatch(pathPrefix: "/upload")
        #expect(match.matches(host: "h", path: "/%75pload", method: "POST"))
        #expect(match.matches(host: "h", path: "/%75PLOAD".lowercased(), method: "POST"))
        #expect(match.matches(host: "h", path: "//upload/x", method: "POST"))
        #expect(match.matches(host: "h", path: "/up%6Coad?x=%2F", method: "POST"))
        #expect(!match.matches(host: "h", path: "/up%2Fload", method: "POST"), "%2F is a reserved character")
        #expect(!match.matches(host: "h", path: "/uploadX", method: "POST"))
        #expect(RouteMatch.routingPath("/a/b?c=%41//") == nil)
        #expect(RouteMatch.routingPath("/a//b%7e?c=%41//") == "/a/b~?c=%41//")
    }

    /// Tomcat and Jetty drop a segment's `;` parameters: `/admin;x/upload` is `/admin/upload` to them, so it
    /// takes the `/admin/upload` route and its rules, not a catch-all route after it.
    @Test func pathParametersAreDroppedForRouting() {
        let match = RouteMatch(pathPrefix: "/admin/upload")
        #expect(match.matches(host: "h", path: "/admin;x=1/upload", method: "POST"))
        #expect(match.matches(host: "h", path: "/admin/upload;jsessionid=abc", method: "POST"))
        #expect(match.matches(host: "h", path: "/admin;/up%6Coad;v/x?q=;", method: "POST"))
        #expect(!match.matches(host: "h", path: "/admin;/x/upload", method: "POST"))
        #expect(RouteMatch.routingPath("/a;b/c;d?e=;f") == "/a/c?e=;f")
    }

    @Test func methodsAreCaseSensitive() {
        let match = RouteMatch(methods: ["POST"])
        #expect(match.matches(host: "h", path: "/", method: "POST"))
        #expect(!match.matches(host: "h", path: "/", method: "post"))
        #expect(!match.matches(host: "h", path: "/", method: "GET"))
    }

    @Test func routeDefaultsFollowTheDesign() throws {
        let route = try Self.route("r")
        #expect(route.forward == .stream)
        #expect(route.multipart == .rewrite)
        #expect(route.spoolMemory == 8 << 20)
        #expect(!route.reportOnly)
        #expect(route.defaultAction == .pass)
        #expect(route.charsets == ["utf-8", "us-ascii"])
        #expect(route.unsafeFilenames == .sanitize)
        // Under `unsafe_filenames: sanitize`, a filename's %22/%0D/%0A are replaced (DESIGN.md, Canonical output).
        #expect(route.strictness == (try Strictness([.unsafeFilename: .normalize])))
        #expect(route.limits == RequestLimits())
        #expect(route.match.host.matchesEverything)
        #expect(route.match.pathPrefix == "/")
        #expect(route.match.methods == nil)
    }

    @Test func unsafeFilenameFollowsTheRouteUnlessSetInStrict() throws {
        #expect(RouteConfiguration(name: "s", upstream: "u").strictness.action(for: .unsafeFilename) == .normalize)
        for action in [RouteConfiguration.UnsafeFilenameAction.reject, .allow] {
            let route = RouteConfiguration(name: "r", upstream: "u", unsafeFilenames: action)
            #expect(route.strictness.action(for: .unsafeFilename) == .reject)
        }
        let strict = RouteConfiguration(
            name: "x", upstream: "u", strictness: try Strictness([.unsafeFilename: .reject]))
        #expect(strict.strictness.action(for: .unsafeFilename) == .reject)
    }

    @Test func otherBodiesDefaultsToRejectOnlyWhenTheRouteHasRules() {
        let plain = RouteConfiguration(name: "plain", upstream: "up")
        #expect(plain.otherBodies == .pass)
        let guarded = RouteConfiguration(name: "guarded", upstream: "up", rules: [Rule(name: "r", strip: true)])
        #expect(guarded.otherBodies == .reject)
        let explicit = RouteConfiguration(name: "x", upstream: "up", otherBodies: .pass, rules: [Rule(name: "r")])
        #expect(explicit.otherBodies == .pass)
    }

    @Test func limitDefaultsFollowTheDesign() {
        let limits = RequestLimits()
        #expect(limits.headerBytes == 16 * 1024)
        #expect(limits.headerCount == 100)
        #expect(limits.bodyBytes == 1 << 30)
        #expect(limits.parts == 1000)
        #expect(limits.partHeaderBytes == 8 * 1024)
        #expect(limits.fieldBytes == 1 << 20)
        #expect(limits.headerTimeout == .seconds(10))
        #expect(limits.idleTimeout == .seconds(60))
        #expect(limits.drainTimeout == .seconds(30))
    }

    @Test func routeOverridesReplaceOnlyTheKeysTheySet() {
        var global = RequestLimits()
        global.bodyBytes = 100 << 20
        global.headerTimeout = .seconds(3)
        let merged = global.applying(RequestLimitOverrides(bodyBytes: 5 << 20, parts: 4, idleTimeout: .seconds(5)))
        #expect(merged.bodyBytes == 5 << 20)
        #expect(merged.parts == 4)
        #expect(merged.idleTimeout == .seconds(5))
        #expect(merged.headerTimeout == .seconds(3))
        #expect(merged.headerBytes == global.headerBytes)
        #expect(merged.fieldBytes == global.fieldBytes)
        #expect(global.applying(RequestLimitOverrides()) == global)
        let all = global.applying(
            RequestLimitOverrides(
                headerBytes: 1, headerCount: 2, bodyBytes: 3, parts: 4,
                partHeaderBytes: 5, fieldBytes: 6, idleTimeout: .seconds(7)))
        #expect(
            all
                == RequestLimits(
                    headerBytes: 1, headerCount: 2, bodyBytes: 3, parts: 4, partHeaderBytes: 5,
                    fieldBytes: 6, headerTimeout: .seconds(3), idleTimeout: .seconds(7)))
    }

    @Test func multipartLimitsCarryTheRequestLimits() {
        let limits = RequestLimits(parts: 7, partHeaderBytes: 512, fieldBytes: 99)
        #expect(limits.multipartLimits.parts == 7)
        #expect(limits.multipartLimits.partHeaderBytes == 512)
        #expect(limits.multipartLimits.fieldBytes == 99)
        #expect(limits.multipartLimits.headerLines == MultipartLimits().headerLines)
    }

    @Test func workerCountResolvesAutoToTheCores() {
        #expect(WorkerCount.auto.resolved(cores: 8) == 8)
        #expect(WorkerCount.auto.resolved(cores: 0) == 1)
        #expect(WorkerCount.count(3).resolved(cores: 8) == 3)
        #expect(WorkerCount.auto.description == "auto")
    }

    @Test func ruleActionKeysNameTheConfiguredActions() throws {
        #expect(Rule(name: "r").actionKeys.isEmpty)
        let rule = Rule(
            name: "r", rename: Rule.Rename(filename: try NameTemplate("{uuid}")), maxBytes: 5,
            reject: Rule.Reject())
        #expect(rule.actionKeys == ["rename", "max_bytes", "reject"])
        #expect(Rule.Reject().status == 403)
        #expect(RuleMatch().matchesEveryPart)
        #expect(!RuleMatch(hasFilename: true).matchesEveryPart)
    }
}
