import CEventTLS
import HTTP1
#if canImport(Glibc)
import Glibc
#endif

/// One client connection: reads request heads, forwards bodies upstream, relays responses back.
///
/// Owns itself while open (`passRetained` in init, released as the last statement of ``close()``); the callbacks
/// of its socket (a ``PlainSocket``, or an OpenSSL bufferevent for TLS) reach it through an unretained reference.
/// Lives on one loop thread.
final class ClientConnection: LoopResource {
    enum Phase {
        /// Reading a request head.
        case head
        /// Forwarding a request body.
        case body
        /// The request is upstream; waiting for or relaying the response.
        case response
        /// An answer is being flushed; then the write side is shut and input discarded until close.
        case closing
    }

    let worker: Worker
    /// The configuration this connection serves under: the worker's at accept, replaced by the current one
    /// when a new request head completes (``adoptCurrentSettings()``), never during an exchange.
    var snapshot: SettingsSnapshot
    var settings: EngineSettings { snapshot.settings }
    let peer: SocketAddress
    /// The peer's address as `X-Forwarded-For` names it, and the forwarding lines it makes, formatted once for
    /// every request of the connection.
    private(set) lazy var forwarding = ForwardingIdentity(client: peer.host, tls: isTLS)
    let isTLS: Bool
    /// A TLS connection's OpenSSL bufferevent (nil for a plain one, and until a TLS client's first byte).
    var bev: OpaquePointer?
    /// A plain connection's socket, read and written by the engine itself.
    var plain: PlainSocket?
    /// The client's input and output buffers (the plain socket's, or the bufferevent's); nil until attached and
    /// after close.
    private(set) var input: OpaquePointer!
    private(set) var output: OpaquePointer!
    private var selfRef: Unmanaged<ClientConnection>?
    var phase = Phase.head
    var heads: RequestHeadParser
    var exchange: Exchange?
    /// The last completed exchange's rewriter, renewed for the next multipart body (its object and output
    /// buffers are reused; everything else is made anew).
    var spareRewriter: PolicyRewriter?
    /// The last request head's and response head's field buffers, taken back by the parsers for the next heads
    /// (``RequestHeadParser/recycle(_:)``): a keep-alive connection's next exchange allocates none of the four.
    var spareRequestFields: HTTPFields?
    var spareResponseFields: HTTPFields?
    /// Reading from the client is paused because the upstream's output is full.
    var clientPaused = false
    /// Reading from the upstream is paused because the client's output is full.
    var upstreamPaused = false
    /// No more requests on this connection after the current one.
    var closeAfterExchange = false
    /// The one per-connection timer (``LazyTimer``) and the deadline it serves (``CoarseClock`` milliseconds;
    /// `.max`: none).
    private var timer: LazyTimer?
    /// A TLS connection before its first byte: the socket, the listener's TLS, and the event that waits.
    private var pendingTLS: (descriptor: Int32, tls: any ServerTLSProvider, waiting: OpaquePointer)?
    private var deadline = Int64.max
    /// When an idle keep-alive connection lets go of its spare buffers (``trimIdleState()``); `.max`: not due.
    private var trimDue = Int64.max
    private var shutDown = false
    /// A TLS error ended the connection (its session must not be resumed).
    private var tlsFailed = false
    /// The client ended its side of the connection (EOF) while an answer was still due or being flushed.
    private var clientEnded = false
    /// TLS: the watch on the bufferevent's output that has libevent write in the same loop turn.
    private var outputWatch: OpaquePointer?
    /// Requests completed on this connection.
    var served = 0
    /// A request head arrived and its answer is not counted yet (see ClientConnection+Metrics).
    var requestPending = false
    /// When the pending request's head was complete (monotonic ns).
    var requestStart: UInt64 = 0
    /// The pending request's route metrics (nil until routed).
    var requestRoute: RouteMetrics?

    init?(worker: Worker, descriptor: Int32, peer: SocketAddress, tls: (any ServerTLSProvider)?) {
        self.worker = worker
        self.snapshot = worker.snapshot
        self.peer = peer
        self.isTLS = tls != nil
        self.heads = RequestHeadParser(limits: worker.settings.headLimits)
        let base = worker.loop.base
        setNoDelay(descriptor)
        let ref = Unmanaged.passRetained(self)
        selfRef = ref
        if let tls {
            // The SSL object and its handshake buffers (~40 KB) wait for the client's first byte, as nginx's do:
            // a connection that never sends a ClientHello costs a socket and this object until header_timeout.
            guard let waiting = event_new(base, descriptor, Int16(EV_READ), { _, _, context in
                withExtendedLifetime(client(context)) { $0.firstBytesArrived() }
            }, ref.toOpaque()) else {
                Glibc.close(descriptor)
                selfRef = nil
                ref.release()
                return nil
            }
            event_add(waiting, nil)
            pendingTLS = (descriptor, tls, waiting)
        } else if !attachPlain(descriptor) {
            selfRef = nil
            ref.release()
            return nil
        }
        timer = LazyTimer(base: base, context: ref.toOpaque()) { _, _, context in
            withExtendedLifetime(Unmanaged<ClientConnection>.fromOpaque(context!).takeUnretainedValue()) {
                $0.timerExpired()
            }
        }
        worker.loop.register(self)
        worker.connections += 1
        worker.metrics.openConnections.increment()
        arm(settings.headerTimeout)
    }

    /// A TLS client's first bytes: the SSL object and its bufferevent are made now, and the handshake starts.
    private func firstBytesArrived() {
        guard let (descriptor, tls, waiting) = pendingTLS else { return }
        var first: UInt8 = 0
        let peeked = recv(descriptor, &first, 1, Int32(MSG_PEEK))
        if peeked < 0, errno == EAGAIN || errno == EINTR {
            event_add(waiting, nil)
            return
        }
        pendingTLS = nil
        event_free(waiting)
        if peeked == 1, first >= UInt8(ascii: "A"), first <= UInt8(ascii: "Z") {
            // A request line, not a TLS record (which starts with 0x16): a plain HTTP client on a TLS port gets a
            // clear 400, as nginx answers it, instead of a reset.
            tlsFailed = true
            guard attachPlain(descriptor) else {
                finishClose()
                return
            }
            answer(Problem(400, "plain_http_on_tls_port", detail: "this port speaks HTTPS"))
            return
        }
        guard peeked == 1 else {
            closeUnattached(descriptor)
            return
        }
        guard let ssl = tls.makeServerSSL() else {
            closeUnattached(descriptor)
            return
        }
        guard let bev = bufferevent_openssl_socket_new(
            worker.loop.base, descriptor, ssl, BUFFEREVENT_SSL_ACCEPTING, BufferEventOptions.standard)
        else {
            SSL_free(ssl)
            closeUnattached(descriptor)
            return
        }
        bufferevent_openssl_set_allow_dirty_shutdown(bev, 1)
        attach(bev)
    }

    /// Sets up a plain client's socket; false, with the socket closed, when libevent cannot allocate.
    private func attachPlain(_ descriptor: Int32) -> Bool {
        let buffers = settings.buffers
        guard let socket = PlainSocket(
            base: worker.loop.base, descriptor: descriptor, highWater: buffers.readHighWater,
            maxIO: buffers.maxSingleIO, onEvent: { [unowned self] event in
                // One strong reference for the whole callback, as the bufferevent callbacks hold theirs: a
                // `readable()` that closes releases the connection's own, and a second read of the unowned
                // reference after it would find the connection gone.
                let connection = self
                switch event {
                case .readable:
                    connection.readable()
                    connection.plain?.refresh()
                case .endOfInput:
                    connection.event(Int16(BEV_EVENT_READING | BEV_EVENT_EOF))
                case .failed(_, let writing):
                    connection.event(Int16((writing ? BEV_EVENT_WRITING : BEV_EVENT_READING) | BEV_EVENT_ERROR))
                case .drained:
                    connection.drained()
                }
            })
        else { return false }
        plain = socket
        input = socket.input
        output = socket.output
        socket.want(true)
        return true
    }

    /// Sets up a TLS client's bufferevent: callbacks, watermarks, and the write path.
    private func attach(_ bev: OpaquePointer) {
        self.bev = bev
        input = bufferevent_get_input(bev)
        output = bufferevent_get_output(bev)
        let context = selfRef!.toOpaque()
        let buffers = settings.buffers
        bufferevent_setcb(bev, clientReadCB, clientWriteCB, clientEventCB, context)
        bufferevent_setwatermark(bev, ev(EV_READ), 0, buffers.readHighWater)
        _ = bufferevent_set_max_single_read(bev, buffers.maxSingleIO)
        _ = bufferevent_set_max_single_write(bev, buffers.maxSingleIO)
        // The OpenSSL bufferevent writes only once epoll reports the socket writable; have it write in the loop
        // turn that queued the bytes instead (see UpstreamConnection.outputGrew()).
        outputWatch = evbuffer_add_cb(output, clientTLSOutputCB, context)
        _ = bufferevent_enable(bev, ev(EV_READ | EV_WRITE))
    }

    /// The connection has its socket and is not closed.
    var isOpen: Bool { plain != nil || bev != nil }

    /// Starts or stops reading from the client (back-pressure).
    func setReading(_ on: Bool) {
        if let plain {
            plain.want(on)
        } else if let bev {
            _ = on ? bufferevent_enable(bev, ev(EV_READ)) : bufferevent_disable(bev, ev(EV_READ))
        }
    }

    // MARK: Timers

    /// Runs the one per-connection timer: header timeout, idle timeout, or the linger limit.
    func arm(_ duration: Duration?) {
        arm(duration.map(LoopTimeout.init))
    }

    /// Stops the timer.
    func disarm() {
        arm(nil as LoopTimeout?)
    }

    /// ``arm(_:)-(Duration?)`` with the time converted already. Moves the deadline; the timer is re-armed only
    /// when it would otherwise fire after it (``LazyTimer``).
    func arm(_ timeout: LoopTimeout?) {
        guard timer != nil else { return }
        if let timeout {
            let now = CoarseClock.now()
            deadline = now &+ timeout.milliseconds
            timer!.fire(by: deadline, now: now)
        } else {
            deadline = .max
        }
    }

    /// From now on an idle stretch of ``EngineSettings/idleTrimDelay`` trims the connection (moved on by each
    /// exchange that ends: a busy connection keeps its spares).
    func scheduleIdleTrim() {
        guard timer != nil, holdsSpares else { return }
        let now = CoarseClock.now()
        trimDue = now &+ settings.idleTrim.milliseconds
        timer!.fire(by: trimDue, now: now)
    }

    /// The timer went off: the deadline passed, moved later (wait for it), or was cleared; or the trim is due.
    private func timerExpired() {
        guard timer != nil else { return }
        timer!.fired()
        let now = CoarseClock.now()
        if now >= trimDue {
            trimDue = .max
            trimIdleState()
        }
        if trimDue != .max { timer!.fire(by: trimDue, now: now) }
        guard deadline != .max else { return }
        guard now >= deadline else {
            timer!.fire(by: deadline, now: now)
            return
        }
        deadline = .max
        timerFired()
    }

    private func timerFired() {
        switch phase {
        case .head:
            if heads.isIdle {
                close()  // idle keep-alive connection, or nothing ever sent
            } else {
                answer(Problem(408, "header_timeout", detail: "the request head did not arrive in time"))
            }
        case .closing:
            close()
        case .body:
            guard let exchange else { return }
            if clientPaused || exchange.bodyReceived {
                // The upstream is slow to take the body (or a spooled one), not the client: its own timeouts run.
                arm(exchange.idle)
            } else {
                answer(Problem(408, "body_timeout", detail: "the request body stalled for longer than idle_timeout"))
            }
        case .response:
            guard let exchange else { return }
            if upstreamPaused {
                // The response waits on a client that stopped reading it.
                worker.events.log("client \(peer) read none of its response for idle_timeout; the exchange is aborted")
                abort()
            } else {
                arm(exchange.idle)  // waiting on the upstream, whose response_timeout runs
            }
        }
    }

    // MARK: Callbacks

    func readable() {
        switch phase {
        case .head: readHead()
        case .body:
            if let exchange { arm(exchange.idle) }
            pumpBody()
        case .response: break  // pipelined bytes wait until the response is done
        case .closing: EvBuffer.drain(input, EvBuffer.length(input))
        }
    }

    /// Bytes were added to a TLS client's empty output: libevent writes them in this loop turn.
    fileprivate func tlsOutputGrew() {
        guard let bev else { return }
        _ = cshim_bufferevent_write_now(bev)
    }

    /// The output was written out whole.
    fileprivate func drained() {
        if upstreamPaused, let exchange, let upstream = exchange.upstream {
            arm(exchange.idle)  // the client read: its response moves again
            upstreamPaused = false
            upstream.setReading(true)
            upstreamReadable(upstream)
        }
        if phase == .closing, isOpen, EvBuffer.length(output) == 0, !shutDown {
            if clientEnded {
                close()  // flushed, and both sides are done
                return
            }
            shutDown = true
            if let plain {
                _ = shutdown(plain.descriptor, Int32(SHUT_WR))
            } else if let bev {
                if !tlsFailed, let ssl = bufferevent_openssl_get_ssl(bev) {
                    _ = SSL_shutdown(ssl)  // close_notify before the FIN: the answer is complete, not truncated
                }
                _ = shutdown(bufferevent_getfd(bev), Int32(SHUT_WR))
            }
        }
    }

    func event(_ what: Int16) {
        let flags = Int32(what)
        if flags & Int32(BEV_EVENT_CONNECTED) != 0 { return }  // TLS handshake done (P8)
        if isTLS, flags & Int32(BEV_EVENT_ERROR) != 0, let bev, bufferevent_get_openssl_error(bev) != 0 {
            tlsFailed = true
            if let ssl = bufferevent_openssl_get_ssl(bev), SSL_is_init_finished(ssl) == 0 {
                worker.metrics.clientTLSHandshakeFailures.increment()
            }
        }
        if flags & Int32(BEV_EVENT_EOF) != 0, phase == .response, let exchange, exchange.bodyReceived {
            // The client finished sending; it may still read the response.
            closeAfterExchange = true
            clientEnded = true
            return
        }
        if flags & Int32(BEV_EVENT_EOF) != 0, phase == .closing, EvBuffer.length(output) > 0 {
            // The client finished sending while an answer is being flushed (a request, then shutdown(SHUT_WR)):
            // finish the flush, then close (drained()), instead of dropping the answer.
            clientEnded = true
            setReading(false)
            return
        }
        if let exchange, phase == .body || phase == .response {
            let how = flags & Int32(BEV_EVENT_ERROR) != 0 ? "reset" : "closed"
            let when = exchange.responseStarted ? "while the response streamed" : "mid-request"
            worker.events.log("client \(peer) \(how) the connection \(when); the exchange is aborted")
        }
        abort()
    }

    // MARK: Closing

    /// Sends `problem` (unless a response already started) and closes after it is flushed.
    func answer(_ problem: Problem) {
        worker.events.problem(problem, peer, exchange)
        if let exchange, exchange.responseStarted {
            abort()
            return
        }
        if let exchange { exchangeEnded(exchange) }
        requestAnswered(status: problem.status)
        if worker.events.reportsAccess {
            // Every answer has its access line, as nginx logs the 4xx and 5xx it makes itself; "-" for what a
            // head that was not read whole does not say.
            worker.access(
                exchange?.head.method ?? "-", exchange?.head.target.string ?? "-", problem.status,
                exchange?.route.name ?? "-")
        }
        EvBuffer.add(output, problem.response(toHEAD: exchange?.head.method == "HEAD"))
        beginClosing()
    }

    /// Flushes the output, then shuts the write side and discards input until the client closes or the
    /// linger limit passes (so a rejection is not lost to a TCP reset).
    func beginClosing() {
        if let upstream = exchange?.upstream {
            upstream.close()
            exchange?.upstream = nil
        }
        exchange?.spool?.close()  // the request is over: its temp file goes now, not with the connection
        phase = .closing
        arm(.seconds(2))
        clientPaused = false
        setReading(true)
        EvBuffer.drain(input, EvBuffer.length(input))
        drained()
    }

    /// Closes at once, aborting any upstream request (its chunked body is never terminated).
    func abort() {
        close()
    }

    func close() {
        if let (descriptor, _, waiting) = pendingTLS {
            pendingTLS = nil
            event_free(waiting)
            closeUnattached(descriptor)
            return
        }
        guard isOpen else { return }
        let midExchange = exchange != nil
        if let exchange { exchangeAbandoned(exchange) }
        if let upstream = exchange?.upstream {
            upstream.close()
        }
        exchange?.spool?.close()
        exchange = nil
        if let plain {
            plain.close()
            self.plain = nil
            input = nil
            output = nil
            finishClose()
            return
        }
        guard let bev else { return }
        if let outputWatch {
            _ = evbuffer_remove_cb_entry(output, outputWatch)
            self.outputWatch = nil
        }
        // As for upstream connections: OpenSSL only keeps a session resumable (TLS 1.2 session ids) when the
        // SSL object was shut down; libevent frees it without, so record the shutdown unless TLS failed.
        if !tlsFailed, let ssl = bufferevent_openssl_get_ssl(bev) {
            // Between requests (keep-alive timeout, or the client's own close_notify) the end is orderly:
            // close_notify first (RFC 8446 §6.1). Never mid-exchange: it would make a cut answer look complete.
            if !shutDown, !midExchange, phase == .head, SSL_is_init_finished(ssl) == 1,
                EvBuffer.length(output) == 0
            {
                _ = SSL_shutdown(ssl)
            }
            SSL_set_shutdown(ssl, SSL_SENT_SHUTDOWN | SSL_RECEIVED_SHUTDOWN)
        }
        bufferevent_free(bev)
        self.bev = nil
        input = nil
        output = nil
        finishClose()
    }

    /// What every close ends with: the worker forgets the connection, which releases itself.
    func finishClose() {
        timer?.free()
        timer = nil
        worker.loop.unregister(self)
        worker.connections -= 1
        worker.metrics.openConnections.decrement()
        worker.connectionClosed(self)
        let ref = selfRef
        selfRef = nil
        ref?.release()  // may deinit self: keep last
    }
}

extension ClientConnection {
    /// Closes a connection that has no socket object (a TLS one before or at its first byte).
    func closeUnattached(_ descriptor: Int32) {
        Glibc.close(descriptor)
        finishClose()
    }
}

@inline(__always)
private func client(_ context: UnsafeMutableRawPointer?) -> ClientConnection {
    Unmanaged<ClientConnection>.fromOpaque(context!).takeUnretainedValue()
}

private let clientReadCB: bufferevent_data_cb = { _, context in
    withExtendedLifetime(client(context)) { $0.readable() }
}
private let clientWriteCB: bufferevent_data_cb = { _, context in
    withExtendedLifetime(client(context)) { $0.drained() }
}
private let clientTLSOutputCB: evbuffer_cb_func = { _, info, context in
    guard let info, info.pointee.n_added > 0, info.pointee.orig_size == 0 else { return }
    client(context).tlsOutputGrew()
}
private let clientEventCB: bufferevent_event_cb = { _, what, context in
    withExtendedLifetime(client(context)) { $0.event(what) }
}
