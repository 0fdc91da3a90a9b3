import Foundation
import Multipart
import Policy
import Testing

@testable import partgate

/// The values the loader produces (the binary tests cover what `check` prints).
@Suite("ConfigLoader")
struct ConfigLoaderTests {
    static func loadDesignExample() throws -> (ProxyConfiguration, ConfigWorkspace) {
        let workspace = try ConfigWorkspace()
        try FileManager.default.createDirectory(atPath: workspace.path("conf"), withIntermediateDirectories: true)
        let path = try workspace.write(ConfigFixtures.designExample, to: "conf/../partgate.yaml")
        return (try ConfigLoader.load(path: path), workspace)
    }

    @Test func designExampleLoadsWithEveryValue() throws {
        let (configuration, workspace) = try Self.loadDesignExample()
        defer { workspace.remove() }
        // The file was named through `conf/..`; relative paths keep the `..` for the kernel to walk.
        let folder = workspace.folder.path + "/conf/.."
        #expect(configuration.version == 1)
        #expect(configuration.workers == .auto)
        #expect(configuration.listeners.map(\.address.description) == ["127.0.0.1:8080", "0.0.0.0:8443"])
        #expect(configuration.listeners[0].tls == nil)
        #expect(
            configuration.listeners[1].tls
                == ListenerTLSConfiguration(
                    certificate: "\(folder)/tls/server.crt",
                    key: "\(folder)/tls/server.key"))
        #expect(configuration.admin?.address.description == "127.0.0.1:9090")

        let upstream = try #require(configuration.upstreams["uploads"])
        #expect(upstream.url == UpstreamURL(scheme: .https, host: "uploads.internal", port: 8443))
        #expect(
            upstream.tls
                == UpstreamTLSConfiguration(
                    ca: "\(folder)/tls/upstream-ca.pem", serverName: "uploads.internal", verify: true,
                    clientCertificate: "\(folder)/tls/client.crt", clientKey: "\(folder)/tls/client.key"))
        #expect(upstream.connectTimeout == .seconds(5))
        #expect(upstream.responseTimeout == .seconds(60))
        #expect(upstream.maxIdleConnections == 32)
        #expect(configuration.limits == RequestLimits())

        let route = try #require(configuration.routes.first)
        #expect(configuration.routes.count == 1)
        #expect(route.name == "avatars")
        #expect(route.match.host.matchesEverything)
        #expect(route.match.pathPrefix == "/avatars")
        #expect(route.match.methods == ["POST", "PUT"])
        #expect(route.upstream == "uploads")
        #expect(route.forward == .stream)
        #expect(route.multipart == .rewrite)
        #expect(route.spoolMemory == 8 << 20)
        #expect(!route.reportOnly)
        #expect(route.strictness.action(for: .preamble) == .normalize)
        #expect(route.strictness.action(for: .epilogue) == .normalize)
        #expect(route.strictness.action(for: .lfLine) == .reject)
        #expect(route.defaultAction == .pass)
        #expect(route.otherBodies == .reject)
        #expect(route.charsets == ["utf-8", "us-ascii"])
        #expect(route.unsafeFilenames == .sanitize)
        #expect(route.limits == RequestLimits())
        #expect(route.rules.map(\.name) == ["drop-internal", "avatar-image", "no-executables"])
    }

    @Test func designExampleRulesCarryTheirMatchesAndActions() throws {
        let (configuration, workspace) = try Self.loadDesignExample()
        defer { workspace.remove() }
        let rules = try #require(configuration.routes.first?.rules)
        #expect(rules[0].match.field?.map(\.pattern) == ["internal_*"])
        #expect(rules[0].strip)
        #expect(rules[0].actionKeys == ["strip"])

        let avatar = rules[1]
        #expect(avatar.match.field?.first?.matches("avatar") == true)
        #expect(avatar.match.hasFilename == true)
        let sniff = try #require(avatar.sniff)
        #expect(sniff.allow?.map(\.pattern) == ["image/png", "image/jpeg", "image/webp"])
        #expect(sniff.allow?.first?.matches("IMAGE/PNG") == true)
        #expect(sniff.onMismatch == .reject)
        #expect(sniff.setContentType && sniff.extensionMustMatch && sniff.validate)
        #expect(avatar.maxBytes == 5 << 20)
        #expect(avatar.onExceed == .reject)
        #expect(avatar.rename?.filename?.placeholders == [.uuid, .ext])
        #expect(avatar.rename?.field == nil)
        #expect(avatar.reject == nil)

        let executables = rules[2]
        #expect(executables.match.sniffedType?.count == 3)
        #expect(executables.reject == Rule.Reject(status: 415))
    }

    @Test func routeLimitsMergeOverTheGlobalOnesWhateverTheKeyOrder() throws {
        let yaml = """
            version: 1
            listeners: [{ address: "[::1]:0" }]
            upstreams: { up: { url: "http://backend" } }
            routes:
              - name: small
                upstream: up
                limits: { body_bytes: 5MiB, parts: 3, header_bytes: 4KiB, idle_timeout: 1m30s }
              - name: default
                upstream: up
                other_bodies: pass
                rules: [{ name: tag, match: { extension: [.PNG, jpg] }, set_headers: { X-Seen: "yes" } }]
            limits: { body_bytes: 100MiB, header_timeout: 2s, field_bytes: 65536 }
            workers: 4
            """
        let configuration = try ConfigLoader.load(yaml: yaml, file: "inline.yaml", folder: "/etc/partgate")
        #expect(configuration.workers == .count(4))
        #expect(configuration.listeners.first?.address.host == "::1")
        #expect(configuration.upstreams["up"]?.url.port == 80)
        let small = configuration.routes[0]
        #expect(small.limits.bodyBytes == 5 << 20)
        #expect(small.limits.parts == 3)
        #expect(small.limits.headerBytes == 4 << 10)
        #expect(small.limits.idleTimeout == .seconds(90))
        #expect(small.limits.headerTimeout == .seconds(2))
        #expect(small.limits.fieldBytes == 65536)
        #expect(small.otherBodies == .pass)
        let fallback = configuration.routes[1]
        #expect(fallback.limits == configuration.limits)
        #expect(fallback.limits.bodyBytes == 100 << 20)
        #expect(fallback.otherBodies == .pass)
        let rule = try #require(fallback.rules.first)
        #expect(rule.match.extension?.map(\.pattern) == ["PNG", "jpg"])
        #expect(rule.match.extension?.first?.matches("png") == true)
        #expect(rule.setHeaders == [Rule.HeaderField(name: "X-Seen", value: "yes")])
    }

    @Test func nullValuesTakeTheirDefaults() throws {
        let yaml = """
            version: 1
            workers:
            listeners: [{ address: 127.0.0.1:0, tls: ~ }]
            admin: null
            upstreams: { up: { url: "https://up.example", tls: } }
            limits:
            routes: [{ name: r, upstream: up, rules: [], charsets: [] }]
            """
        let configuration = try ConfigLoader.load(yaml: yaml, file: "inline.yaml", folder: "/")
        #expect(configuration.workers == .auto)
        #expect(configuration.listeners.first?.tls == nil)
        #expect(configuration.admin == nil)
        #expect(configuration.upstreams["up"]?.effectiveTLS == UpstreamTLSConfiguration())
        #expect(configuration.routes.first?.charsets == [])
        #expect(configuration.routes.first?.otherBodies == .pass)
    }

    @Test func errorsCarryCodesAndPositions() throws {
        let yaml = "version: 1\nlisteners: []\nupstreams: {}\nroutes: [{ name: r, upstream: up, forward: spooled }]\n"
        let error = try #require(throws: ConfigError.self) {
            try ConfigLoader.load(yaml: yaml, file: "x.yaml", folder: "/")
        }
        #expect(error.diagnostics.map(\.code) == [.emptyList, .emptyList, .invalidValue])
        #expect(error.diagnostics.map { "\($0.line ?? 0):\($0.column ?? 0)" } == ["2:12", "3:12", "4:44"])
        #expect(
            error.diagnostics[2].reason == "'forward' of route 'r' must be one of stream, spool, found 'spooled' "
                + "(did you mean 'spool'?)")
        #expect(error.description.hasPrefix("x.yaml:2:12: error: 'listeners' must not be an empty list\n"))
    }

    @Test func suggestionsOnlyForLikelyTypos() {
        #expect(Suggestion.closest(to: "lisetners", in: ConfigDecoder.rootKeys) == "listeners")
        #expect(Suggestion.closest(to: "upstream", in: ConfigDecoder.rootKeys) == "upstreams")
        #expect(Suggestion.closest(to: "colour", in: ConfigDecoder.rootKeys) == nil)
        #expect(Suggestion.closest(to: "ab", in: ["xy"]) == nil)
        #expect(Suggestion.editDistance("kitten", "sitting") == 3)
        #expect(Suggestion.editDistance("ab", "ba") == 1)
        #expect(Suggestion.editDistance("", "abc") == 3)
    }

    @Test func repeatedKeysPointAtTheRepetition() {
        let text = "a: 1\nb:\n  c: 1\n  d: 2\n  c: 3\n"
        let position = YAMLErrorTranslation.position(
            ofRepeatedKey: "c", firstLine: 3, firstColumn: 3,
            in: text)
        #expect(position == (5, 3))
        let flow = "m: { k: 1, j: 2, k: 3 }\n"
        let flowPosition = YAMLErrorTranslation.position(
            ofRepeatedKey: "k", firstLine: 1, firstColumn: 6,
            in: flow)
        #expect(flowPosition == (1, 18))
    }
}
