import Foundation
import LoopbackTestSupport
import Multipart
import Policy
import ProxyEngine
import Testing

/// A spool file never outlives its request: after success, a refusal, a client abort, an upstream failure,
/// or a proxy stop or drain, the spool directory is empty and the process holds no descriptor on a deleted
/// file in it. Every body here outgrows its 64 KiB of spool memory, so each request had a file.
///
/// When a plain upstream fails, its output may still hold the sendfile segment of the spool; libevent
/// closes it when it finalizes that connection's buffers, a loop turn after the 502, so those tests wait
/// for it (briefly) where the others look at once.
@Suite("Spool cleanup", .serialized)
struct ProxySpoolCleanupTests {
    static let memory: Int64 = 64 * 1024
    static let body = SpoolRequests.form(fileBytes: 2 << 20)

    /// Sends the first `count` bytes of an upload and waits until the proxy spooled part of it to a file.
    static func startUpload(port: UInt16, directory: SpoolDirectory, count: Int = 1 << 20) throws -> TestHTTPClient {
        let client = try TestHTTPClient(port: port)
        client.send(Array(SpoolRequests.upload(body).prefix(count)))
        #expect(directory.wait { $0.openDeletedFiles.count == 1 })
        #expect(directory.entries.isEmpty)
        return client
    }

    @Test func afterSuccess() throws {
        let proxy = try SpoolProxy(route: SpoolRequests.route(.spool, spoolMemory: Self.memory))
        defer { proxy.shutdown() }
        #expect(try proxy.send(SpoolRequests.upload(Self.body))?.status == 200)
        #expect(proxy.directory.isClean)
    }

    @Test func afterARefusal() throws {
        let proxy = try SpoolProxy(
            route: SpoolRequests.route(.spool, spoolMemory: Self.memory, rules: [SpoolRequests.rejectPHP]))
        defer { proxy.shutdown() }
        let body = SpoolRequests.form(fileBytes: 2 << 20, lastFilename: "shell.php")
        #expect(try proxy.send(SpoolRequests.upload(body))?.status == 422)
        #expect(proxy.directory.isClean)
        #expect(proxy.recorder.records.isEmpty)
    }

    @Test func afterAClientAbortMidBody() throws {
        let upstream = try CountingUpstream()
        defer { upstream.stop() }
        let directory = try SpoolDirectory()
        let (proxy, port) = try SpoolRequests.proxy(
            route: SpoolRequests.route(.spool, spoolMemory: Self.memory, upstream: "up"), upstreamPort: upstream.port,
            directory: directory.path)
        defer { proxy.stop(); proxy.wait() }
        do {
            _ = try Self.startUpload(port: port, directory: directory)
        }  // the client closes here
        #expect(directory.wait { $0.isClean })
        #expect(upstream.connections.isEmpty)
    }

    @Test func afterTheUpstreamRefusedTheConnection() throws {
        let refusing = RefusingPort()
        defer { withExtendedLifetime(refusing) {} }
        let port = refusing.port
        let directory = try SpoolDirectory()
        let (proxy, proxyPort) = try SpoolRequests.proxy(
            route: SpoolRequests.route(.spool, spoolMemory: Self.memory, upstream: "up"), upstreamPort: port,
            directory: directory.path)
        defer { proxy.stop(); proxy.wait() }
        let client = try TestHTTPClient(port: proxyPort)
        client.send(SpoolRequests.upload(Self.body))
        let response = client.readResponse()
        #expect(response?.status == 502)
        #expect(directory.wait(seconds: 2) { $0.isClean })
    }

    /// The upstream resets the connection after the head and part of the spooled body.
    @Test func afterTheUpstreamFailedMidBody() throws {
        let reset = try RawServer { fd in
            _ = RawServer.readHead(fd)
            var buffer = [UInt8](repeating: 0, count: 65536)
            _ = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            var linger = linger(l_onoff: 1, l_linger: 0)
            setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<linger>.size))
        }
        defer { reset.stop() }
        let directory = try SpoolDirectory()
        let (proxy, port) = try SpoolRequests.proxy(
            route: SpoolRequests.route(.spool, spoolMemory: Self.memory, upstream: "up"), upstreamPort: reset.port,
            directory: directory.path)
        defer { proxy.stop(); proxy.wait() }
        let client = try TestHTTPClient(port: port)
        client.send(SpoolRequests.upload(Self.body))
        #expect(client.readResponse()?.status == 502)
        #expect(directory.wait(seconds: 2) { $0.isClean })
    }

    /// A TLS upstream answers 413 after the head while most of the spool is still to be read from the file in
    /// slices: the answer is relayed, no more slices go, and the connections close.
    @Test func afterATLSUpstreamAnsweredEarly() throws {
        let (listener, upstreamPort) = try TestSocket.listen()
        let upstream = Thread {
            guard let socket = try? listener.accept(), let ssl = try? TLSFixture.shared.serverContext().makeSSL() else {
                return
            }
            let endpoint = BlockingTLSEndpoint(ssl: ssl, socket: socket)
            guard case .success = endpoint.handshake(asServer: true), case .success = endpoint.read(count: 1000) else {
                return
            }
            _ = endpoint.write("HTTP/1.1 413 Payload Too Large\r\nContent-Length: 4\r\n\r\nbig!")
            endpoint.awaitClose()
            endpoint.close()
        }
        upstream.start()
        let directory = try SpoolDirectory()
        let (proxy, port) = try SpoolRequests.proxy(
            route: SpoolRequests.route(.spool, spoolMemory: Self.memory, upstream: "up"), upstreamPort: upstreamPort,
            directory: directory.path, tls: true)
        defer { proxy.stop(); proxy.wait() }
        let client = try TestHTTPClient(port: port)
        client.send(SpoolRequests.upload(SpoolRequests.form(fileBytes: 32 << 20)))
        let response = client.readResponse()
        #expect(response?.status == 413)
        #expect(response?.text == "big!")
        #expect(response?.header("connection") == "close")
        #expect(client.isClosedByPeer())
        #expect(directory.wait(seconds: 2) { $0.isClean })
    }

    @Test func afterAProxyStopWhileSpooling() throws {
        let upstream = try CountingUpstream()
        defer { upstream.stop() }
        let directory = try SpoolDirectory()
        let (proxy, port) = try SpoolRequests.proxy(
            route: SpoolRequests.route(.spool, spoolMemory: Self.memory, upstream: "up"), upstreamPort: upstream.port,
            directory: directory.path)
        let client = try Self.startUpload(port: port, directory: directory)
        proxy.stop()
        proxy.wait()
        #expect(directory.isClean)
        #expect(client.isClosedByPeer())
        #expect(upstream.connections.isEmpty)
    }

    /// A drain waits for in-flight requests up to its timeout; a body still arriving then is cut off.
    @Test func afterADrainTimeoutWhileSpooling() throws {
        let upstream = try CountingUpstream()
        defer { upstream.stop() }
        let directory = try SpoolDirectory()
        let (proxy, port) = try SpoolRequests.proxy(
            route: SpoolRequests.route(.spool, spoolMemory: Self.memory, upstream: "up"), upstreamPort: upstream.port,
            directory: directory.path, drainTimeout: .milliseconds(300))
        let client = try Self.startUpload(port: port, directory: directory)
        proxy.drain()
        proxy.wait()
        #expect(directory.isClean)
        #expect(client.isClosedByPeer())
        #expect(upstream.connections.isEmpty)
    }
}
