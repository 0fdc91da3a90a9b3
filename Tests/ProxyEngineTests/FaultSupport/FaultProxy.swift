import Foundation
import LoopbackTestSupport
import Policy
import ProxyEngine
import Testing

/// How a fault case reaches its upstream: plain or TLS, streamed or spooled.
struct FaultVariant: Sendable, CustomTestStringConvertible {
    var tls: Bool
    var forward: RouteConfiguration.ForwardMode

    var testDescription: String { "\(tls ? "TLS" : "plain") upstream, \(forward.rawValue)" }

    static let all = [
        FaultVariant(tls: false, forward: .stream), FaultVariant(tls: true, forward: .stream),
        FaultVariant(tls: false, forward: .spool), FaultVariant(tls: true, forward: .spool),
    ]
}

/// Every line the engine reported, as text: `log: MESSAGE`, `problem: STATUS FLAG`, `access: METHOD TARGET STATUS`.
final class FaultLog: @unchecked Sendable {
    // @unchecked Sendable: `lines` is only touched while holding `lock`.
    private let lock = NSLock()
    private var lines: [String] = []

    func add(_ line: String) {
        lock.lock()
        lines.append(line)
        lock.unlock()
    }

    var all: [String] {
        lock.lock()
        defer { lock.unlock() }
        return lines
    }

    var events: EngineEvents {
        EngineEvents(
            onLog: { self.add("log: \($0)") },
            onAccess: { method, target, status, _ in self.add("access: \(method) \(target) \(status)") },
            onProblem: { self.add("problem: \($0.status) \($0.flag)") })
    }

    /// Waits up to `seconds` for a line containing every one of `pieces`; the line, or nil.
    func wait(for pieces: String..., seconds: TimeInterval = 5) -> String? {
        let deadline = Date(timeIntervalSinceNow: seconds)
        while true {
            if let line = all.first(where: { line in pieces.allSatisfy { line.contains($0) } }) { return line }
            if Date() > deadline { return nil }
            Thread.sleep(forTimeInterval: 0.01)
        }
    }
}

/// A proxy for one fault case, with what it holds counted before and after the case: its sockets (accepted
/// on its port, or made to the upstream's), its loops' open resources (every client and upstream connection
/// owns one bufferevent, and the `SSL` inside it for TLS), and its spool directory (names and descriptors
/// on deleted files).
final class FaultProxy {
    let proxy: ProxyServer
    let port: UInt16
    let upstreamPort: UInt16
    let directory: SpoolDirectory
    let log = FaultLog()
    /// A 2 MiB form: large enough to be mid-flight when a fault hits, and to outgrow the spool memory.
    static let body = SpoolRequests.form(fileBytes: 2 << 20)
    static let upload = SpoolRequests.upload(body)
    /// The matching sockets open before the case ran (a full-backlog upstream's own filler connections may
    /// close meanwhile): only sockets that are not among them count as left behind.
    private let baselineSockets: Set<String>
    private let baselineResources: Int?

    init(
        upstreamPort: UInt16, variant: FaultVariant, connectTimeout: Duration = .seconds(5),
        responseTimeout: Duration = .seconds(5), headerTimeout: Duration = .seconds(10),
        idleTimeout: Duration = .seconds(60), alternatePorts: [UInt16] = []
    ) throws {
        directory = try SpoolDirectory()
        self.upstreamPort = upstreamPort
        var upstream = UpstreamSettings(
            name: "up", address: SocketAddress("127.0.0.1:\(upstreamPort)")!, serverName: "localhost",
            tls: variant.tls ? try TLSFixture.shared.clientContext() : nil, connectTimeout: connectTimeout,
            responseTimeout: responseTimeout)
        upstream.alternateAddresses = alternatePorts.map { SocketAddress("127.0.0.1:\($0)")! }
        var route = SpoolRequests.route(variant.forward, spoolMemory: 64 * 1024, upstream: "up")
        // The stream variant streams every body, small ones included: a small body that arrived whole takes the
        // spool variant's path (buffer_small_bodies), which that variant covers.
        if variant.forward == .stream { route.bufferSmallBodies = 0 }
        route.limits.idleTimeout = idleTimeout
        let settings = EngineSettings(
            listeners: [ListenerSettings(address: SocketAddress("127.0.0.1:0")!)], upstreams: ["up": upstream],
            routes: [route],
            headerTimeout: headerTimeout, spoolDirectory: directory.path)
        proxy = ProxyServer(settings: settings, events: log.events)
        port = try proxy.start()[0].port
        baselineSockets = Set(ProcessSockets.proxyConnections(proxyPort: port, upstreamPort: upstreamPort).map(\.inode))
        baselineResources = proxy.openResources()
    }

    /// Expects everything the case used to be released (waiting up to 5 s, since the last close can come a
    /// loop turn after the answer): the proxy's sockets and loop resources back at their baselines, the spool
    /// directory clean.
    func expectReleased(sourceLocation: SourceLocation = #_sourceLocation) {
        let deadline = Date(timeIntervalSinceNow: 5)
        var sockets = newSockets()
        var resources = proxy.openResources()
        while !sockets.isEmpty || resources != baselineResources || !directory.isClean,
            Date() < deadline
        {
            Thread.sleep(forTimeInterval: 0.02)
            sockets = newSockets()
            resources = proxy.openResources()
        }
        #expect(sockets.isEmpty, "proxy sockets left: \(sockets); log: \(log.all)", sourceLocation: sourceLocation)
        #expect(
            resources != nil && resources == baselineResources, "open loop resources", sourceLocation: sourceLocation)
        #expect(directory.entries.isEmpty, "spool names left", sourceLocation: sourceLocation)
        #expect(directory.openDeletedFiles.isEmpty, "spool files held open", sourceLocation: sourceLocation)
    }

    /// The proxy's connections that were not open before the case ran.
    private func newSockets() -> [ProcessSockets.Entry] {
        ProcessSockets.proxyConnections(proxyPort: port, upstreamPort: upstreamPort)
            .filter { !baselineSockets.contains($0.inode) }
    }

    /// Stops the proxy; expects its listener gone and no descriptor on its spool directory.
    func shutdown(sourceLocation: SourceLocation = #_sourceLocation) {
        proxy.stop()
        proxy.wait()
        #expect(ProcessSockets.bound(to: port).isEmpty, "sockets on the proxy port", sourceLocation: sourceLocation)
        #expect(directory.isClean, sourceLocation: sourceLocation)
    }
}
