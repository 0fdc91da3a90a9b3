import Foundation
import LoopbackTestSupport
import ProxyEngine
import Testing

/// What an end-to-end test runs against: a temporary folder with certificates made for this test run, a
/// TLS echo upstream in this process, and the configuration `partgate serve` is started with.
///
/// Files under `tls/`: `ca.pem` (the CA that signed everything), `proxy.crt`/`proxy.key` (partgate's TLS
/// listener, `localhost` and `127.0.0.1`), `other-ca.pem` (a CA that signed nothing here).
final class ServeFixture {
    let folder: URL
    /// Every complete request the echo upstream received.
    let recorder = EchoRecorder()
    private let echo: EchoUpstream
    /// The echo upstream's TLS context (its certificate names `localhost` and `127.0.0.1`), for more echoes.
    private let echoTLS: TLSServerContext
    /// The echo upstream's port on 127.0.0.1 (TLS, certificate for `localhost` and `127.0.0.1`).
    let echoPort: UInt16

    init() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("partgate-e2e-\(UUID().uuidString)")
        self.folder = folder
        let tls = folder.appendingPathComponent("tls")
        try FileManager.default.createDirectory(at: tls, withIntermediateDirectories: true)
        func file(_ name: String) -> String { tls.appendingPathComponent(name).path }
        let authority = try CertificateAuthority(commonName: "partgate e2e CA", validityDays: 1)
        let upstreamLeaf = try authority.issue(dnsNames: ["localhost"], ipAddresses: ["127.0.0.1"], validityDays: 1)
        let proxyLeaf = try authority.issue(dnsNames: ["localhost"], ipAddresses: ["127.0.0.1"], validityDays: 1)
        try authority.write(certificateTo: file("ca.pem"))
        try proxyLeaf.write(certificateTo: file("proxy.crt"), keyTo: file("proxy.key"))
        try CertificateAuthority(commonName: "stranger CA", validityDays: 1).write(certificateTo: file("other-ca.pem"))
        let recorder = self.recorder
        echoTLS = try TLSServerContext(identity: upstreamLeaf.identity)
        echo = EchoUpstream(tls: echoTLS) { recorder.append($0) }
        echoPort = try echo.start(address: SocketAddress("127.0.0.1:0")!).port
    }

    /// Starts another TLS echo upstream on `address` (the same certificate, the same ``recorder``); stop it.
    func startEcho(at address: SocketAddress) throws -> (echo: EchoUpstream, port: UInt16) {
        let recorder = self.recorder
        let another = EchoUpstream(tls: echoTLS) { recorder.append($0) }
        return (another, try another.start(address: address).port)
    }

    /// Stops the echo upstream and deletes the folder.
    func remove() {
        echo.stop()
        try? FileManager.default.removeItem(at: folder)
    }

    /// The absolute path of `name` inside the folder.
    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    /// Writes `bytes` to `name` inside the folder; returns the absolute path.
    @discardableResult
    func write(_ bytes: [UInt8], to name: String) throws -> String {
        try Data(bytes).write(to: URL(fileURLWithPath: path(name)))
        return path(name)
    }

    /// The `upstreams.echo` mapping for the TLS echo: verified against `ca.pem` as `localhost`.
    func echoUpstream(ca: String = "tls/ca.pem", serverName: String = "localhost", extra: [String] = []) -> [String] {
        ["url: https://127.0.0.1:\(echoPort)", "tls: { ca: \(ca), server_name: \(serverName) }"] + extra
    }

    /// A configuration: a plain listener, optionally a TLS one (`proxy.crt`), the upstream `echo` given by
    /// `upstream` (its YAML lines), and one route `all` to it.
    static func config(upstream: [String], workers: Int = 2, tlsListener: Bool = false) -> String {
        var lines = ["version: 1", "workers: \(workers)", "listeners:", "  - address: 127.0.0.1:0"]
        if tlsListener {
            lines += ["  - address: 127.0.0.1:0", "    tls: { certificate: tls/proxy.crt, key: tls/proxy.key }"]
        }
        lines += ["upstreams:", "  echo:"] + upstream.map { "    " + $0 }
        lines += ["limits:", "  drain_timeout: 10s"]
        lines += ["routes:", "  - name: all", "    upstream: echo"]
        return lines.joined(separator: "\n") + "\n"
    }

    /// Writes `yaml` as `partgate.yaml`, requires `partgate check` to accept it, then starts `partgate serve`
    /// on that very file and waits for its `listening` lines.
    ///
    /// - Returns: the process (stop it; `kill()` it in a `defer`) and the listener ports in configuration order.
    func serve(_ yaml: String, listeners: Int = 1) throws -> (ServeProcess, [UInt16]) {
        let config = try write(Array(yaml.utf8), to: "partgate.yaml")
        let check = try PartgateBinary.run(["check", "--config", config])
        try #require(check.status == 0, "partgate check refused the configuration: \(check.stderr)")
        let process = try ServeProcess(configPath: config)
        let ports = process.listeningPorts(count: listeners)
        guard ports.count == listeners else {
            process.kill()
            throw StartError(description: "no \(listeners) listening line(s): \(process.output) \(process.standardError)")
        }
        return (process, ports)
    }

    struct StartError: Error, CustomStringConvertible {
        var description: String
    }
}

extension ServeProcess {
    /// SIGTERM; the process must exit 0 after logging `stopped`.
    func expectCleanStop(sourceLocation: SourceLocation = #_sourceLocation) {
        let status = terminate()
        #expect(status == 0, "exit status after SIGTERM; stderr: \(standardError)", sourceLocation: sourceLocation)
        #expect(waitForLog("stopped", timeout: 5) != nil, "no stopped line: \(output)", sourceLocation: sourceLocation)
    }
}
