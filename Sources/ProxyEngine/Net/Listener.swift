import CEventTLS
#if canImport(Glibc)
import Glibc
#endif

/// A listening socket on one loop (`evconnlistener`, SO_REUSEADDR + SO_REUSEPORT), handing accepted
/// sockets to a closure on the loop thread.
///
/// When `accept` fails for want of a descriptor or memory (`EMFILE`, `ENFILE`, `ENOBUFS`, `ENOMEM`), the
/// listening socket stays readable: the listener stops accepting for ``acceptPause`` and tries again, as nginx
/// and HAProxy do, instead of spinning on the failure; ``onAcceptFailure`` hears of it at most once a second.
final class Listener: LoopResource {
    private var listener: OpaquePointer?
    private let loop: EventLoop
    private let onAccept: (Int32, SocketAddress) -> Void
    /// Told why accepting paused (at most once a second).
    var onAcceptFailure: ((String) -> Void)?
    /// How long accepting pauses after a failed `accept`.
    static let acceptPause = timeval(tv_sec: 0, tv_usec: 100_000)
    private var resumeEvent: OpaquePointer?
    /// Set by ``disable()``: a pause ends without accepting again.
    private var stopped = false
    /// Set while a failed `accept` pauses accepting.
    private var pausedAfterFailure = false
    /// Set by ``hold(_:)`` while the worker is at its connection limit.
    private var held = false
    private var lastReport: UInt64 = 0
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
        evconnlistener_set_error_cb(created) { _, context in
            Unmanaged<ListenerBox>.fromOpaque(context!).takeUnretainedValue().listener?.acceptFailed(errno)
        }
        resumeEvent = event_new(loop.base, -1, 0, { _, _, context in
            Unmanaged<ListenerBox>.fromOpaque(context!).takeUnretainedValue().listener?.resume()
        }, context)
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

    /// `accept` failed with `code` (libevent retries the transient failures itself): pause, then try again.
    private func acceptFailed(_ code: Int32) {
        guard let listener, let resumeEvent else { return }
        evconnlistener_disable(listener)
        pausedAfterFailure = true
        var pause = Self.acceptPause
        event_add(resumeEvent, &pause)
        let now = MonotonicClock.now()
        if lastReport == 0 || MonotonicClock.elapsed(since: lastReport) >= 1_000_000_000 {
            lastReport = now
            onAcceptFailure?(
                "accept on \(address) failed: \(String(cString: strerror(code))); accepting pauses for 100 ms")
        }
    }

    private func resume() {
        pausedAfterFailure = false
        guard let listener, !stopped, !held else { return }
        evconnlistener_enable(listener)
    }

    /// Stops accepting while `on` (the worker is at its connection limit; new connections wait in the listen
    /// queue), and accepts again when it is off (unless a failed `accept`'s pause or ``disable()`` holds it).
    func hold(_ on: Bool) {
        guard held != on, let listener else { return }
        held = on
        if on {
            evconnlistener_disable(listener)
        } else if !stopped, !pausedAfterFailure {
            evconnlistener_enable(listener)
        }
    }

    /// Stops accepting (new connections queue in the kernel until the socket closes).
    func disable() {
        stopped = true
        if let resumeEvent { event_del(resumeEvent) }
        if let listener { evconnlistener_disable(listener) }
    }

    func close() {
        if let resumeEvent {
            event_free(resumeEvent)
            self.resumeEvent = nil
        }
        if let listener {
            evconnlistener_free(listener)
            self.listener = nil
        }
        box?.listener = nil
        box = nil
        loop.unregister(self)
    }

    deinit {
        if let resumeEvent { event_free(resumeEvent) }
        if let listener { evconnlistener_free(listener) }
    }
}

/// The listener callback's context: a weak-style hop that `close()` clears before freeing.
private final class ListenerBox {
    weak var listener: Listener?
}
