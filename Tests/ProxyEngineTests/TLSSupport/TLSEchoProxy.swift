import Foundation
import LoopbackTestSupport
import Policy
import ProxyEngine

/// A proxy (one route, `all` unless given) in front of a TLS echo upstream whose certificate is verified against a CA made
/// for the test; both on loopback with port 0.
final class TLSEchoProxy {
    let recorder = EchoRecorder()
    let port: UInt16
    private let echo: EchoUpstream
    private let proxy: ProxyServer

    init(maxIdleConnections: Int = 32, route: RouteConfiguration = RouteConfiguration(name: "all", upstream: "up"))
        throws
    {
        let authority = try CertificateAuthority(commonName: "upstream TLS test CA", validityDays: 1)
        let leaf = try authority.issue(dnsNames: ["localhost"], validityDays: 1)
        let recorder = self.recorder
        echo = EchoUpstream(tls: try TLSServerContext(identity: leaf.identity)) { recorder.append($0) }
        let address = try echo.start(address: SocketAddress("127.0.0.1:0")!)
        let tls = try TLSClientContext(trustRoots: .certificates([authority.certificate]))
        let settings = EngineSettings(
            listeners: [ListenerSettings(address: SocketAddress("127.0.0.1:0")!)],
            upstreams: ["up": UpstreamSettings(name: "up", address: address, serverName: "localhost", tls: tls,
                                               maxIdleConnections: maxIdleConnections)],
            routes: [route])
        proxy = ProxyServer(settings: settings)
        do {
            port = try proxy.start()[0].port
        } catch {
            echo.stop()
            throw error
        }
    }

    func shutdown() {
        proxy.stop()
        proxy.wait()
        echo.stop()
    }
}
