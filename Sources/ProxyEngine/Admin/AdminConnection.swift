import CEventTLS
import HTTP1

#if canImport(Glibc)
    import Glibc
#endif

/// One admin connection: reads one request head, writes the answer, shuts its write side once the answer is
/// flushed and closes when the client does (so unread input does not turn the close into a reset that could
/// destroy the answer). Everything, head and answer, must end within the server's timeout (``AdminServer/timeout``) of the accept: an
/// absolute deadline, not an idle timer that each byte of a trickled head would restart.
///
/// Owns itself while open (`passRetained` in init, released as the last statement of ``close()``), like the
/// proxy's connections; lives on the admin loop's thread.
final class AdminConnection: LoopResource {
    private let server: AdminServer
    private var bev: OpaquePointer?
    private var selfRef: Unmanaged<AdminConnection>?
    private var heads = RequestHeadParser(limits: HeadLimits())
    /// The answer is written; the write side shuts once the output drained.
    private var answered = false
    /// Closes the connection ``AdminServer/timeout`` after the accept, whatever it is doing.
    private var deadline: OpaquePointer?

    init?(server: AdminServer, descriptor: Int32) {
        self.server = server
        let options = BufferEventOptions.standard
        guard let bev = bufferevent_socket_new(server.loop.base, descriptor, options) else {
            Glibc.close(descriptor)
            return nil
        }
        self.bev = bev
        let ref = Unmanaged.passRetained(self)
        selfRef = ref
        bufferevent_setcb(bev, adminReadCB, adminWriteCB, adminEventCB, ref.toOpaque())
        var time = timeval(server.connectionTimeout)
        deadline = event_new(server.loop.base, -1, 0, { _, _, context in admin(context).close() }, ref.toOpaque())
        if let deadline { event_add(deadline, &time) }
        _ = bufferevent_enable(bev, ev(EV_READ | EV_WRITE))
        server.loop.register(self)
        server.connections += 1
    }

    fileprivate func readable() {
        guard let bev, let input = bufferevent_get_input(bev) else { return }
        guard !answered else {
            EvBuffer.drain(input, EvBuffer.length(input))
            return
        }
        while !answered, let chain = EvBuffer.firstChain(input) {
            switch heads.feed(chain) {
            case .needMore:
                EvBuffer.drain(input, chain.count)
            case .complete(let head, let consumed):
                EvBuffer.drain(input, consumed)
                do {
                    // The proxy's own checks (framing, Host, look-alike names): one reading of a request here too.
                    _ = try RequestAdmission.checkHead(head)
                    respond(AdminResponse.make(for: head, handlers: server.handlers))
                } catch {
                    respond(error.response(toHEAD: head.method == "HEAD"))
                }
            case .error(let error):
                respond(Problem(http: error).response)
            }
        }
    }

    private func respond(_ bytes: [UInt8]) {
        guard let bev, let input = bufferevent_get_input(bev), let output = bufferevent_get_output(bev) else { return }
        answered = true
        EvBuffer.add(output, bytes)
        EvBuffer.drain(input, EvBuffer.length(input))
    }

    fileprivate func drained() {
        guard answered, let bev, let output = bufferevent_get_output(bev), EvBuffer.length(output) == 0 else { return }
        // The answer is out: send FIN and read (and drop) until the client closes or the deadline.
        _ = shutdown(bufferevent_getfd(bev), Int32(SHUT_WR))
        bufferevent_disable(bev, ev(EV_WRITE))
    }

    fileprivate func event(_ what: Int16) {
        close()  // EOF, error or timeout: an admin request is one head and one answer
    }

    func close() {
        guard let bev else { return }
        if let deadline {
            event_free(deadline)
            self.deadline = nil
        }
        bufferevent_free(bev)
        self.bev = nil
        server.loop.unregister(self)
        server.connections -= 1
        let ref = selfRef
        selfRef = nil
        ref?.release()  // may deinit self: keep last
    }
}

@inline(__always)
private func admin(_ context: UnsafeMutableRawPointer?) -> AdminConnection {
    Unmanaged<AdminConnection>.fromOpaque(context!).takeUnretainedValue()
}

private let adminReadCB: bufferevent_data_cb = { _, context in
    withExtendedLifetime(admin(context)) { $0.readable() }
}
private let adminWriteCB: bufferevent_data_cb = { _, context in
    withExtendedLifetime(admin(context)) { $0.drained() }
}
private let adminEventCB: bufferevent_event_cb = { _, what, context in
    withExtendedLifetime(admin(context)) { $0.event(what) }
}
