import CEventTLS
import HTTP1
import Multipart
import Policy

/// A small HTTP/1.1 server that answers every request with JSON describing what it received: for a
/// multipart/form-data body, each part (name, filename, type, size, sha256) and the boundary it saw.
///
/// It is `partgate demo`'s built-in upstream and the test suite's recording upstream. Plain or TLS,
/// keep-alive, bodies by Content-Length or chunked, parsed as they stream.
public final class EchoUpstream: @unchecked Sendable {
    // @unchecked Sendable: built on the caller's thread before start(); afterwards only its loop's thread
    // touches connections; `record` is delivered through a Sendable closure.
    let loop = EventLoop()
    private var listener: Listener?
    private var thread: LoopThread?
    let tls: (any ServerTLSProvider)?
    let onRequest: @Sendable (EchoRecord) -> Void
    /// The bound address.
    public private(set) var address: SocketAddress?

    /// - Parameters:
    ///   - tls: TLS for clients (nil: plain HTTP).
    ///   - onRequest: called (on the upstream's thread) with every complete request.
    public init(tls: (any ServerTLSProvider)? = nil, onRequest: @escaping @Sendable (EchoRecord) -> Void = { _ in }) {
        self.tls = tls
        self.onRequest = onRequest
    }

    /// Binds `address` (port 0: any free port) and starts serving on a thread of its own.
    @discardableResult
    public func start(address: SocketAddress) throws -> SocketAddress {
        let listener = try Listener(loop: loop, address: address) { [unowned self] descriptor, _ in
            _ = EchoConnection(server: self, descriptor: descriptor)
        }
        self.listener = listener
        self.address = listener.address
        let loop = self.loop
        thread = LoopThread { loop.run() }
        return listener.address
    }

    /// Stops serving and waits for the thread.
    public func stop() {
        loop.stop()
        thread?.join()
        thread = nil
        listener = nil
    }
}

/// What the echo upstream received in one request.
public struct EchoRecord: Sendable {
    public var method: String
    public var target: String
    /// Request header fields as received (name, value).
    public var fields: [(String, String)]
    /// The boundary of a multipart/form-data body.
    public var boundary: String?
    public var parts: [EchoPart]
    /// Body bytes received (after chunked decoding).
    public var bodyBytes: Int64
    public var bodySHA256: String
    /// Why the body could not be read, if it could not.
    public var error: String?
    /// The request's position on its connection: 1 for the first, 2 for the next one (keep-alive), ...
    public var connectionRequest: Int
    /// For a TLS connection, whether its handshake resumed an earlier session; nil for plain HTTP.
    public var tlsSessionReused: Bool?

    public func field(_ name: String) -> String? {
        fields.first { $0.0.lowercased() == name.lowercased() }?.1
    }
}

/// One part as the echo upstream parsed it.
public struct EchoPart: Sendable, Equatable {
    public var name: String
    public var filename: String?
    public var contentType: String?
    public var size: Int64
    public var sha256: String
}
