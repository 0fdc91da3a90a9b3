import CEventTLS  // owns <sys/socket.h>'s enums (SOCK_STREAM, SHUT_WR) when its module loads first
import Foundation
import ProxyEngine

/// A scripted upstream for fault tests on 127.0.0.1 (port 0): each accepted connection runs `handler` on its
/// own thread, over TLS (the test CA's `localhost` certificate) when `tls` is set.
///
/// `handshake: false` accepts TCP connections and never answers the TLS handshake. ``stop()`` closes the
/// listener; ``waitForHandlers(seconds:)`` waits, bounded, for every handler to return.
final class FaultUpstream: @unchecked Sendable {
    // @unchecked Sendable: `stopped`, `running` and `finished` are only touched while holding `condition`.
    let port: UInt16
    private let listener: TestSocket
    private let condition = NSCondition()
    private var stopped = false
    private var running = 0
    private var finished = 0

    init(tls: Bool, handshake: Bool = true, handler: @escaping @Sendable (FaultPeer) -> Void) throws {
        let (listener, port) = try TestSocket.listen()
        self.listener = listener
        self.port = port
        let context = tls ? try TLSFixture.shared.serverContext() : nil
        Thread { [self] in
            // Each accept waits at most 10 s (the socket's timeout); the loop ends when stop() closed the listener.
            while !isStopped {
                guard let socket = try? listener.accept() else { continue }
                begin()
                Thread { [self] in
                    defer { end() }
                    var endpoint: BlockingTLSEndpoint?
                    if let context {
                        guard handshake else {
                            _ = FaultPeer(socket: socket, tls: nil).drain()  // a TCP peer that never speaks TLS
                            return
                        }
                        guard let ssl = try? context.makeSSL() else { return }
                        let tls = BlockingTLSEndpoint(ssl: ssl, socket: socket)
                        guard case .success = tls.handshake(asServer: true) else { return }
                        endpoint = tls
                    }
                    let peer = FaultPeer(socket: socket, tls: endpoint)
                    handler(peer)
                    peer.close()
                }.start()
            }
        }.start()
    }

    private var isStopped: Bool {
        condition.lock()
        defer { condition.unlock() }
        return stopped
    }

    private func begin() {
        condition.lock()
        running += 1
        condition.unlock()
    }

    private func end() {
        condition.lock()
        running -= 1
        finished += 1
        condition.broadcast()
        condition.unlock()
    }

    /// Connections whose handler returned.
    var finishedConnections: Int {
        condition.lock()
        defer { condition.unlock() }
        return finished
    }

    /// Connections whose handler is still running.
    var runningConnections: Int {
        condition.lock()
        defer { condition.unlock() }
        return running
    }

    /// Waits until no handler runs (at most `seconds`); whether that happened.
    func waitForHandlers(seconds: TimeInterval = 10) -> Bool {
        let deadline = Date(timeIntervalSinceNow: seconds)
        condition.lock()
        defer { condition.unlock() }
        while running > 0 {
            if !condition.wait(until: deadline) { return running == 0 }
        }
        return true
    }

    /// Stops accepting (the port closes).
    func stop() {
        condition.lock()
        stopped = true
        condition.unlock()
        _ = shutdown(listener.fd, Int32(SHUT_RDWR))
        listener.close()
    }
}
