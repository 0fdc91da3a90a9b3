import Dispatch
import Foundation
import ProxyEngine
import Synchronization

/// Runs one TLS connection over 127.0.0.1 between a ``TLSServerContext`` (on its own thread) and a
/// ``TLSClientContext`` (on the calling thread), with blocking sockets and no libevent.
///
/// After the handshake the client sends `ping`, the server answers `pong`, and both close. The client's read of
/// `pong` is also where a TLS 1.3 client receives the server's session tickets.
enum TLSLoopback {
    /// What one side saw.
    struct Side: Sendable {
        /// The handshake's outcome.
        var handshake: Result<TLSConnectionInfo, TLSError>
        /// The failure of the ping/pong exchange after a successful handshake (nil: it worked, or never ran).
        var exchangeError: TLSError? = nil
        /// What the side read from its peer (`ping` on the server, `pong` on the client).
        var received: String? = nil

        /// The handshake's error, if it failed.
        var handshakeError: TLSError? {
            if case .failure(let error) = handshake { return error }
            return nil
        }

        /// The negotiated parameters, if the handshake succeeded.
        var info: TLSConnectionInfo? {
            try? handshake.get()
        }

        /// Whether the handshake and the exchange both worked.
        var succeeded: Bool { info != nil && exchangeError == nil && received != nil }
    }

    /// Both sides of a finished connection; `clientEndpoint` keeps the client's `SSL` alive for inspection.
    struct Run {
        var client: Side
        var server: Side
        var clientEndpoint: BlockingTLSEndpoint
    }

    /// Connects `client` to `server` as `serverName` and exchanges ping/pong.
    ///
    /// - Parameters:
    ///   - serverSetup: adjusts the server's `SSL*` before `SSL_accept` (e.g. a lower security level).
    ///   - clientSetup: adjusts the client's `SSL*` before `SSL_connect` (e.g. a maximum version, ALPN).
    static func run(
        server: TLSServerContext,
        client: TLSClientContext,
        serverName: String,
        serverSetup: @escaping @Sendable (OpaquePointer) -> Void = { _ in },
        clientSetup: (OpaquePointer) -> Void = { _ in }
    ) throws -> Run {
        let (listener, port) = try TestSocket.listen()
        let serverSide = ServerOutcome()
        let thread = Thread {
            serverSide.finish(serve(server, listener: listener, setup: serverSetup))
        }
        thread.start()

        let socket = try TestSocket.connect(port: port)
        let endpoint = BlockingTLSEndpoint(ssl: try client.makeSSL(serverName: serverName), socket: socket)
        clientSetup(endpoint.ssl)
        var clientSide = Side(handshake: endpoint.handshake(asServer: false))
        if clientSide.info != nil {
            if let error = endpoint.write("ping") {
                clientSide.exchangeError = error
            } else {
                switch endpoint.read(count: 4) {
                case .success(let text): clientSide.received = text
                case .failure(let error): clientSide.exchangeError = error
                }
            }
        }
        endpoint.close()  // before waiting: a server stuck in a read sees EOF

        guard let serverResult = serverSide.wait(seconds: 30) else {
            throw SocketError(message: "the TLS test server did not finish within 30 s")
        }
        return Run(client: clientSide, server: serverResult, clientEndpoint: endpoint)
    }

    private static func serve(
        _ context: TLSServerContext,
        listener: TestSocket,
        setup: (OpaquePointer) -> Void
    ) -> Side {
        let socket: TestSocket
        let ssl: OpaquePointer
        do {
            socket = try listener.accept()
            ssl = try context.makeSSL()
        } catch {
            return Side(handshake: .failure(TLSError(.connection, "test server: \(error)")))
        }
        let endpoint = BlockingTLSEndpoint(ssl: ssl, socket: socket)
        defer { endpoint.close(graceful: true) }  // the client closes first: its alerts and reads complete
        setup(ssl)
        var side = Side(handshake: endpoint.handshake(asServer: true))
        guard side.info != nil else { return side }
        switch endpoint.read(count: 4) {
        case .failure(let error):
            side.exchangeError = error
        case .success(let text):
            side.received = text
            side.exchangeError = endpoint.write("pong")
            endpoint.awaitClose()
        }
        return side
    }
}

/// The server thread's result, handed to the test thread.
private final class ServerOutcome: Sendable {
    private let side = Mutex<TLSLoopback.Side?>(nil)
    private let done = DispatchSemaphore(value: 0)

    func finish(_ result: TLSLoopback.Side) {
        side.withLock { $0 = result }
        done.signal()
    }

    func wait(seconds: Int) -> TLSLoopback.Side? {
        guard done.wait(timeout: .now() + .seconds(seconds)) == .success else { return nil }
        return side.withLock { $0 }
    }
}
