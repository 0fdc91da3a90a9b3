import CEventTLS
import HTTP1

#if canImport(Glibc)
    import Glibc
#endif

/// One admin connection: reads one request head, writes the answer, closes once it is flushed.
///
/// Owns itself while open (`passRetained` in init, released as the last statement of ``close()``), like the
/// proxy's connections; lives on the admin loop's thread.
final class AdminConnection: LoopResource {
    private let server: AdminServer
    private var bev: OpaquePointer?
    private var selfRef: Unmanaged<AdminConnection>?
    private var heads = RequestHeadParser(limits: HeadLimits())
    /// The answer is written; the connection closes once the output drained.
    private var answered = false

    init?(server: AdminServer, descriptor: Int32) {
        self.server = server
        let options = Int32(bitPattern: BEV_OPT_CLOSE_ON_FREE.rawValue | BEV_OPT_DEFER_CALLBACKS.rawValue)
        guard let bev = bufferevent_socket_new(server.loop.base, descriptor, options) else {
            Glibc.close(descriptor)
            return nil
        }
        self.bev = bev
        let ref = Unmanaged.passRetained(self)
        selfRef = ref
        bufferevent_setcb(bev, adminReadCB, adminWriteCB, adminEventCB, ref.toOpaque())
        var time = timeval(AdminServer.timeout)
        _ = withUnsafePointer(to: &time) { bufferevent_set_timeouts(bev, $0, $0) }
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
                respond(AdminResponse.make(for: head, handlers: server.handlers))
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
        close()
    }

    fileprivate func event(_ what: Int16) {
        close()  // EOF, error or timeout: an admin request is one head and one answer
    }

    func close() {
        guard let bev else { return }
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
