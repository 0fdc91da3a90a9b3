import CEventTLS
#if canImport(Glibc)
import Glibc
#endif

/// A listening socket on one loop (`evconnlistener`, SO_REUSEADDR + SO_REUSEPORT), handing accepted
/// sockets to a closure on the loop thread.
final class Listener: LoopResource {
    private var listener: OpaquePointer?
    private let loop: EventLoop
    private let onAccept: (Int32, SocketAddress) -> Void
    /// The address actually bound (port 0 resolved).
    let address: SocketAddress

    struct BindError: Error, CustomStringConvertible {
        var address: String
        var reason: String
        var description: String { "cannot listen on \(address): \(reason)" }
    }

    init(loop: EventLoop, address: SocketAddress, onAccept: @escaping (Int32, SocketAddress) -> Void) throws {
        self.loop = loop
        self.onAccept = onAccept
        let flags = LEV_OPT_CLOSE_ON_FREE | LEV_OPT_REUSEABLE | LEV_OPT_REUSEABLE_PORT | LEV_OPT_CLOSE_ON_EXEC
        var created: OpaquePointer?
        let box = ListenerBox()
        let context = Unmanaged.passUnretained(box).toOpaque()
        address.withSockaddr { sockaddr, length in
            created = evconnlistener_new_bind(loop.base, { _, fd, peer, length, context in
                let box = Unmanaged<ListenerBox>.fromOpaque(context!).takeUnretainedValue()
                box.listener?.accepted(fd, peer, Int(length))
            }, context, flags, 511, sockaddr, length)
        }
        guard let created else {
            throw BindError(address: address.description, reason: String(cString: strerror(errno)))
        }
        listener = created
        self.address = SocketAddress.local(of: evconnlistener_get_fd(created)) ?? address
        box.listener = self
        self.box = box
        loop.register(self)
    }

    /// Keeps the trampoline target alive exactly as long as the listener.
    private var box: ListenerBox?

    private func accepted(_ fd: Int32, _ peer: UnsafeMutablePointer<sockaddr>?, _ length: Int) {
        let address = peer.map { SocketAddress($0, length: length) } ?? self.address
        onAccept(fd, address)
    }

    /// Stops accepting (new connections queue in the kernel until the socket closes).
    func disable() {
        if let listener { evconnlistener_disable(listener) }
    }

    func close() {
        if let listener {
            evconnlistener_free(listener)
            self.listener = nil
        }
        box?.listener = nil
        box = nil
        loop.unregister(self)
    }

    deinit {
        if let listener { evconnlistener_free(listener) }
    }
}

/// The listener callback's context: a weak-style hop that `close()` clears before freeing.
private final class ListenerBox {
    weak var listener: Listener?
}
