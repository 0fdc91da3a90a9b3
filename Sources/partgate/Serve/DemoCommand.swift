import ArgumentParser
import Foundation
import Policy
import ProxyEngine

/// `partgate demo`: the proxy in front of a built-in TLS echo upstream, no files needed.
struct DemoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Run partgate in front of a built-in TLS echo upstream (certificate made at start-up).",
        discussion: """
            The echo upstream answers every request with JSON listing the parts it received (name, filename, \
            type, size, sha256) and the boundary it saw, so one curl -F shows partgate's rewriting. The proxy \
            verifies the echo upstream's certificate like any upstream's.
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
        let configuration = ProxyConfiguration(
            listeners: [ListenerConfiguration(address: listenAddress)],
            upstreams: ["demo-echo": UpstreamConfiguration(url: UpstreamURL(scheme: .https, host: "localhost", port: upstream.address.port))],
            routes: [RouteConfiguration(name: "demo", upstream: "demo-echo")])
        try ProxyRunner.run(configuration: configuration, extraUpstreams: ["demo-echo": upstream],
                            log: logging.makeLog()) { addresses in
            let proxy = addresses.first.map(\.description) ?? listen
            StandardStream.out.write("""

                partgate demo: proxy on http://\(proxy), TLS echo upstream on https://localhost:\(upstream.address.port)
                Try:

                  curl -F title=hello -F 'file=@/etc/hostname;filename=../../etc/passwd' http://\(proxy)/upload

                The upstream answers with the parts and the boundary it received. Ctrl-C stops.


                """)
        }
    }
}
