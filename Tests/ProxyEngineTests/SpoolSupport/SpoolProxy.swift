import Foundation
import LoopbackTestSupport
import Policy
import ProxyEngine

/// A proxy with one route in front of an echo upstream, plain or TLS, spooling into its own directory.
final class SpoolProxy {
    let directory: SpoolDirectory
    let upstream: EchoUpstream
    let proxy: ProxyServer
    let recorder = EchoRecorder()
    let port: UInt16
    private var stopped = false

    /// - Parameters:
    ///   - route: the route (its upstream must be "echo").
    ///   - tls: whether the upstream speaks TLS (verified against the test CA).
    ///   - atRequest: called on the upstream's thread when a whole request arrived, before it is answered.
    init(route: RouteConfiguration, tls: Bool = false, directory: SpoolDirectory? = nil,
         atRequest: @escaping @Sendable (EchoRecord) -> Void = { _ in }) throws {
        let directory = try directory ?? SpoolDirectory()
        self.directory = directory
        let recorder = self.recorder
        upstream = EchoUpstream(tls: tls ? try TLSFixture.shared.serverContext() : nil) { record in
            atRequest(record)
            recorder.append(record)
        }
        let address = try upstream.start(address: SocketAddress("127.0.0.1:0")!)
        let settings = EngineSettings(
            listeners: [ListenerSettings(address: SocketAddress("127.0.0.1:0")!)],
            upstreams: ["echo": UpstreamSettings(name: "echo", address: address, serverName: "localhost",
                                                 tls: tls ? try TLSFixture.shared.clientContext() : nil)],
            routes: [route], spoolDirectory: directory.path)
        proxy = ProxyServer(settings: settings)
        port = try proxy.start()[0].port
    }

    /// Stops the proxy (closing what is open), then the upstream.
    func shutdown() {
        guard !stopped else { return }
        stopped = true
        proxy.stop()
        proxy.wait()
        upstream.stop()
    }

    deinit { shutdown() }

    /// Sends the head of `request` (an `Expect: 100-continue` request whose last `bodyCount` bytes are its body) on
    /// a new connection, reads the interim response, then sends the body and reads the response.
    func sendAfterContinue(_ request: [UInt8], bodyCount: Int) throws -> (interim: Int?, response: TestHTTPClient.Response?) {
        let client = try TestHTTPClient(port: port)
        let headEnd = request.count - bodyCount
        client.send(Array(request[..<headEnd]))
        let interim = client.readInterimResponse()
        client.send(Array(request[headEnd...]))
        return (interim, client.readResponse())
    }

    /// Sends `request` on a new connection and reads the response.
    func send(_ request: [UInt8]) throws -> TestHTTPClient.Response? {
        let client = try TestHTTPClient(port: port)
        client.send(request)
        return client.readResponse()
    }
}
