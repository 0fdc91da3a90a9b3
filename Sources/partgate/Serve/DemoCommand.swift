import ArgumentParser
import Foundation
import Policy
import ProxyEngine

/// `partgate demo`: conf/policy-images.yaml (embedded) in front of a built-in TLS echo upstream, no files needed.
struct DemoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract:
            "Run conf/policy-images.yaml in front of a built-in TLS echo upstream (certificate made at start-up).",
        discussion: """
            The policy is conf/policy-images.yaml, embedded in the binary: only an image in the field 'avatar' \
            passes (sniffed, validated, re-typed, renamed to {uuid}{ext}, at most 5 MiB), executables are \
            refused with 415, every other part is stripped, and each part gets an audit line. Its upstreams are \
            replaced by the echo upstream, which answers every request with JSON listing the parts it received \
            (name, filename, type, size, sha256) and the boundary it saw. The proxy verifies the echo upstream's \
            certificate like any upstream's.
            """
    )

    @Option(name: .long, help: "Where the proxy listens.")
    var listen = "127.0.0.1:8080"

    @OptionGroup var logging: LoggingOptions

    func run() throws {
        let listenAddress: ListenAddress
        do {
            listenAddress = try ListenAddress(parsing: listen)
        } catch {
            StandardStream.err.write("partgate demo: --listen \(listen): \(error)\n")
            throw ExitCode(1)
        }
        var configuration: ProxyConfiguration
        do {
            configuration = try ConfigLoader.load(
                yaml: DemoPolicy.yaml, file: DemoPolicy.source + " (embedded)",
                folder: FileManager.default.currentDirectoryPath)
        } catch {
            StandardStream.err.write(error.description + "\n")
            throw ExitCode(1)
        }
        let echo: EchoUpstream
        let upstream: UpstreamSettings
        do {
            let authority = try CertificateAuthority(commonName: "partgate demo CA", validityDays: 2)
            let leaf = try authority.issue(dnsNames: ["localhost"], ipAddresses: ["127.0.0.1"], validityDays: 2)
            echo = EchoUpstream(tls: try TLSServerContext(identity: leaf.identity))
            let address = try echo.start(address: SocketAddress("127.0.0.1:0")!)
            let client = try TLSClientContext(trustRoots: .certificates([leaf.authority]), verify: true)
            upstream = UpstreamSettings(name: "demo-echo", address: address, serverName: "localhost", tls: client)
        } catch {
            StandardStream.err.write("partgate demo: cannot start the echo upstream: \(error)\n")
            throw ExitCode(1)
        }
        defer { echo.stop() }
        // Every upstream of the policy becomes the echo upstream (the engine's settings take `extraUpstreams`).
        var extraUpstreams: [String: UpstreamSettings] = [:]
        for name in configuration.upstreams.keys {
            configuration.upstreams[name] = UpstreamConfiguration(
                url: UpstreamURL(scheme: .https, host: "localhost", port: upstream.address.port))
            var settings = upstream
            settings.name = name
            extraUpstreams[name] = settings
        }
        configuration.listeners = [ListenerConfiguration(address: listenAddress)]
        try ProxyRunner.run(configuration: configuration, extraUpstreams: extraUpstreams,
                            log: logging.makeLog()) { addresses in
            let proxy = addresses.first.map(\.description) ?? listen
            StandardStream.out.write(Self.banner(proxy: proxy, echoPort: upstream.address.port))
        }
    }

    /// A 1×1 PNG (valid to the last CRC), base64: what the banner's first example uploads.
    static let avatarPNGBase64 =
        "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="

    /// Where the banner's commands put the PNG.
    static let avatarPath = "/tmp/partgate-avatar.png"

    /// One request the banner suggests: what it shows, and curl's arguments.
    struct Example {
        var comment: String
        var curlArguments: [String]
    }

    /// The banner's requests to the proxy at `proxy` (`host:port`); a test runs exactly these.
    static func examples(proxy: String, avatarPath: String = avatarPath) -> [Example] {
        let url = "http://\(proxy)/avatars"
        return [
            Example(
                comment: "'note' is stripped; the avatar arrives as {uuid}.png, image/png, its name and type replaced",
                curlArguments: [
                    "-F", "note=hello", "-F",
                    "avatar=@\(avatarPath);filename=../../me.png;type=application/octet-stream",
                    url,
                ]),
            Example(
                comment: "an executable posing as a JPEG: 415, rule no-executables",
                curlArguments: ["-F", "avatar=@/bin/ls;filename=cat.jpg;type=image/jpeg", url]),
        ]
    }

    static func banner(proxy: String, echoPort: UInt16) -> String {
        var lines = [
            "",
            "partgate demo: running \(DemoPolicy.source) (embedded) on http://\(proxy),",
            "in front of a TLS echo upstream on https://localhost:\(echoPort) that answers with the parts and the",
            "boundary it received. Only an image in the field 'avatar' gets through; other fields are stripped;",
            "executables are refused. Each part gets an audit line below. Try:",
            "",
            "  echo \(avatarPNGBase64) | base64 -d > \(avatarPath)",
        ]
        for example in examples(proxy: proxy) {
            lines.append("  # \(example.comment)")
            lines.append("  curl " + example.curlArguments.map(Self.shellQuoted).joined(separator: " "))
        }
        lines += ["", "Ctrl-C stops.", "", ""]
        return lines.joined(separator: "\n")
    }

    /// `word` as one POSIX shell word: as it is when it holds only safe characters, else in single quotes.
    static func shellQuoted(_ word: String) -> String {
        let safe = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:=@,+")
        if !word.isEmpty && word.allSatisfy(safe.contains) { return word }
        return "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
