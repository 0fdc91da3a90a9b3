import CEventTLS
#if canImport(Glibc)
import Glibc
#endif

/// What an upstream connection reports to the exchange that uses it.
protocol UpstreamDelegate: AnyObject {
    func upstreamConnected(_ upstream: UpstreamConnection)
    func upstreamReadable(_ upstream: UpstreamConnection)
    func upstreamDrained(_ upstream: UpstreamConnection)
    /// The connection failed or closed; `timedOut` distinguishes 504 from 502.
    func upstreamClosed(_ upstream: UpstreamConnection, reason: String?, timedOut: Bool)
}

/// One connection to an upstream: an input and an output evbuffer, and the ``UpstreamSocket`` (plain or TLS) of the
/// current attempt, which moves bytes between them and the network. It owns itself while open (released in
/// ``close()``); the client using it is its delegate, and an idle pooled connection has none.
final class UpstreamConnection: LoopResource {
    let settings: UpstreamSettings
    /// The ``EngineSettings/generation`` `settings` came from (0: unknown): while the worker still serves that
    /// generation, the pool keeps the connection without comparing settings.
    let generation: Int
    /// Failure counters, latency and pool gauge of this upstream (nil: not measured).
    let metrics: UpstreamMetrics?
    private let loop: EventLoop
    /// The current attempt's socket; nil once closed.
    private(set) var socket: UpstreamSocket?
    /// The output buffer (request bytes go here, also before the connection is up); nil once closed.
    private(set) var output: OpaquePointer!
    /// The input buffer (response bytes); nil once closed.
    private(set) var input: OpaquePointer!
    /// Whether the connection is open (not closed yet).
    var isOpen: Bool { socket != nil }
    private var ssl: OpaquePointer? { socket?.ssl }
    private var selfRef: Unmanaged<UpstreamConnection>?
    /// The client using the connection. A strong reference, cleared when the connection closes (``close()``) or
    /// goes back to its pool (``UpstreamPool/put(_:)``): the client holds the connection while it uses it, and
    /// that cycle ends with the exchange. (A `weak` one gave every client a side table: each retain and release of
    /// it took the runtime's slow path, ~500 instructions per small request.)
    var delegate: (any UpstreamDelegate)?
    /// The pool holding this connection while it is idle; told when the connection closes there. Strong, like
    /// ``delegate``: cleared when the connection leaves the pool (taken, removed) or closes.
    var idlePool: UpstreamPool?
    /// The `Keep-Alive: timeout=N` of the last response, in seconds: the pool keeps the connection idle for less.
    var keepAliveSeconds: Int?
    private(set) var connected = false
    /// Requests this connection carried (for logs and reuse tests).
    var requests = 0
    /// A TLS error ended the connection: its session must not be resumed (RFC 5246 §7.2.2).
    private var tlsFailed = false
    /// Large-chain writer for TLS upstreams (see ``CoalescingOutput``).
    var coalescing = CoalescingOutput()
    /// Whether request bytes are copied into large chains (TLS) rather than moved chain by chain (plain).
    var isTLS: Bool { settings.tls != nil }

    // Inactivity timeouts, kept lazily (``LazyTimer``) instead of as the bufferevent's, which libevent re-arms
    // after every read and write. Limits and stamps are ``CoarseClock`` milliseconds; a limit of 0 is none.
    private var timer: LazyTimer?
    /// Time allowed without a read while reading is on (``setReading(_:)``).
    private var readLimit: Int64 = 0
    /// Time allowed without a write while the output holds bytes (or before the connection is up).
    private var writeLimit: Int64 = 0
    private var lastRead: Int64 = 0
    private var lastWrite: Int64 = 0
    private var readingOn = true
    /// When the response head must be complete (0: no deadline). Reads do not move it: a head trickled a byte at a
    /// time still ends at `response_timeout`, as the time to the head it is documented to be.
    private var headDeadline: Int64 = 0
    /// The most response bytes read after a failed write (``readAfterWriteFailure()``): an early answer's head
    /// and short body, not a whole response.
    private let lateReadLimit: Int

    /// Records batched into large writes while a large body streams (TLS only, see ``TLSWriteBatch``), and the
    /// event that waits for the socket when a flush was refused.
    private(set) var batch = TLSWriteBatch()
    private var flushEvent: OpaquePointer?
    /// While the body is still coming, a drain leaves the batch's partial tail for the next drain to fill, and this
    /// timer writes it if none comes within ``TLSWriteBatch/tailDelay`` (see ``holdTail``).
    private var tailEvent: OpaquePointer?
    /// Whether drains leave a partial batch buffered: from the start of batching until the request is all in the
    /// output (``requestWritten()``).
    private var holdTail = false

    /// The address this connection connects to, or reached.
    private(set) var address: SocketAddress
    /// The upstream's other addresses not tried yet, in order: a connect that fails (refused, unreachable, timed
    /// out) before any request byte went out tries the next (see ``UpstreamSettings/alternateAddresses``).
    private var untried: ArraySlice<SocketAddress> = []
    /// The attempts that failed so far, for the log line of the last one.
    private var failedAttempts: [String] = []
    /// Where the address a connection reached is remembered (per worker), when the upstream has several.
    private let addressMemory: UpstreamPool?
    /// The largest single read or write (``BufferSettings/maxSingleIO``).
    private let maxSingleIO: Int

    init?(
        loop: EventLoop, settings: UpstreamSettings, generation: Int = 0, buffers: BufferSettings,
        metrics: UpstreamMetrics? = nil, addressMemory: UpstreamPool? = nil
    ) {
        self.loop = loop
        self.settings = settings
        self.generation = generation
        self.metrics = metrics
        self.addressMemory = addressMemory
        maxSingleIO = buffers.maxSingleIO
        lateReadLimit = buffers.readHighWater
        if settings.alternateAddresses.isEmpty {
            address = settings.address
        } else {
            let order = addressMemory?.addressOrder(settings) ?? settings.addresses
            address = order[0]
            untried = order.dropFirst()
        }
        guard let input = evbuffer_new() else { return nil }
        guard let output = evbuffer_new() else {
            evbuffer_free(input)
            return nil
        }
        self.input = input
        self.output = output
        // A plain socket takes a spool file's segments by `sendfile`; without the flag, libevent maps them into
        // memory. (A TLS socket must see the bytes.)
        if settings.tls == nil { _ = evbuffer_set_flags(output, UInt64(EVBUFFER_FLAG_DRAINS_TO_FD)) }
        let ref = Unmanaged.passRetained(self)
        selfRef = ref
        guard let socket = makeSocket() else {
            selfRef = nil
            ref.release()
            return nil  // deinit frees the buffers
        }
        self.socket = socket
        _ = evbuffer_add_cb(output, upstreamOutputCB, ref.toOpaque())
        timer = LazyTimer(base: loop.base, context: ref.toOpaque()) { _, _, context in
            withExtendedLifetime(upstream(context)) { $0.timerExpired() }
        }
        loop.register(self)
        setTimeouts(settings.connectTimeout)
    }

    deinit {
        // Only an init that failed leaves buffers here: ``close()`` frees them.
        if let input { evbuffer_free(input) }
        if let output { evbuffer_free(output) }
    }

    /// A socket (and for TLS its `SSL`) connecting to ``address``; the connect and TLS handshake must finish
    /// within the connect timeout. Nil if it could not be made.
    private func makeSocket() -> UpstreamSocket? {
        var ssl: OpaquePointer?
        if let tls = settings.tls {
            guard let made = tls.makeClientSSL(serverName: settings.serverName) else { return nil }
            ssl = made
        }
        return UpstreamSocket(
            owner: self, base: loop.base, address: address, ssl: ssl, input: input, output: output, maxIO: maxSingleIO)
    }

    /// A connect or TLS handshake failed (refused, unreachable, timed out, closed, not verified) before any request
    /// byte went out: the next address, if one is left (as nginx's `proxy_next_upstream error timeout`), else the
    /// failure.
    private func connectFailed(reason: String, timedOut: Bool) {
        guard socket != nil, !connected else { return }
        if let next = untried.popFirst() {
            failedAttempts.append("\(address): \(reason)")
            if reconnect(to: next) { return }
        }
        let earlier = failedAttempts.isEmpty ? "" : " (after \(failedAttempts.joined(separator: "; ")))"
        fail(reason: reason + earlier, timedOut: timedOut)
    }

    /// Replaces the socket of a failed connect with one to `next`; the request bytes queued so far stay in the
    /// output for it (none was sent: the connection never came up). False if no socket could be made.
    private func reconnect(to next: SocketAddress) -> Bool {
        guard let old = socket else { return false }
        let previous = address
        address = next
        guard let fresh = makeSocket() else {
            address = previous
            return false
        }
        old.close()  // closes the failed socket and frees its SSL
        tlsFailed = false
        fresh.rateLimit = old.rateLimit
        fresh.lowWater = old.lowWater
        socket = fresh
        setTimeouts(settings.connectTimeout)
        return true
    }

    /// Caps the write rate for the exchange now using the connection, or lifts the cap (nil). A pooled
    /// connection serves routes with different rates, so each exchange sets its own.
    /// - Parameter bytesPerSecond: the route's `max_upstream_rate`, nil for none.
    func limitWriteRate(_ bytesPerSecond: Int64?) {
        guard let socket, socket.rateLimit?.bytesPerSecond != bytesPerSecond else { return }
        socket.rateLimit = bytesPerSecond.flatMap { UpstreamRateLimit(bytesPerSecond: $0, now: CoarseClock.now()) }
    }

    /// The largest piece a write should be handed as one chain: a tick's worth under a rate limit, else no limit.
    /// A `sendfile` chain (a spool's file, plain upstreams) goes whole, whatever the bucket holds.
    var writeSlice: Int { socket?.rateLimit?.bytesPerTick ?? .max }

    /// Appends request bytes (copied; coalesced into large chains for TLS).
    func write(_ bytes: UnsafeRawBufferPointer) {
        if isTLS {
            coalescing.add(output, bytes, chainLimit: writeSlice)
        } else {
            EvBuffer.add(output, bytes)
        }
    }

    /// Appends request bytes.
    func write(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { write($0) }
    }

    /// Sets read and write timeouts (connect, handshake, response, idle).
    func setTimeouts(_ duration: Duration?) {
        let timeout = duration.map(LoopTimeout.init)
        setTimeouts(read: timeout, write: timeout)
    }

    /// Sets the read and write inactivity timeouts separately (nil: none), each counted from now, as
    /// `bufferevent_set_timeouts` does. Before the connection is up both run without pause: connect and TLS
    /// handshake together must finish within the connect timeout.
    func setTimeouts(read: LoopTimeout?, write: LoopTimeout?) {
        guard socket != nil, timer != nil else { return }
        let now = CoarseClock.now()
        readLimit = read?.milliseconds ?? 0
        writeLimit = write?.milliseconds ?? 0
        lastRead = now
        lastWrite = now
        if readLimit > 0 { timer!.fire(by: now &+ readLimit, now: now) }
        if writeLimit > 0 { timer!.fire(by: now &+ writeLimit, now: now) }
    }

    /// The response head must be complete within `timeout` from now; bytes arriving do not extend it, unlike
    /// the read limit. Ends with ``responseHeadArrived()``.
    func limitResponseHead(_ timeout: LoopTimeout) {
        guard socket != nil, timer != nil else { return }
        let now = CoarseClock.now()
        headDeadline = now &+ timeout.milliseconds
        timer!.fire(by: headDeadline, now: now)
    }

    /// The final response head is in: from now on only the inactivity limits apply.
    func responseHeadArrived() {
        headDeadline = 0
    }

    /// The timer went off: fail the connection if a limit passed, else wait for the earliest that can. While a
    /// limit is set the timer stays armed (a paused direction is looked at again one limit later), so stamps
    /// never need to arm it.
    private func timerExpired() {
        guard socket != nil, timer != nil else { return }
        timer!.fired()
        let now = CoarseClock.now()
        var next = Int64.max
        if headDeadline > 0 {
            if now >= headDeadline { return timedOut() }
            next = headDeadline
        }
        if readLimit > 0 {
            if readingOn || !connected {
                let deadline = lastRead &+ readLimit
                if now >= deadline { return timedOut() }
                next = deadline
            } else {
                next = now &+ readLimit
            }
        }
        if writeLimit > 0 {
            if !connected || evbuffer_get_length(output) > 0 || batch.pending > 0 {
                let deadline = lastWrite &+ writeLimit
                if now >= deadline { return timedOut() }
                next = min(next, deadline)
            } else {
                next = min(next, now &+ writeLimit)
            }
        }
        if next != .max { timer!.fire(by: next, now: now) }
    }

    private func timedOut() {
        guard connected else {
            metrics?.connectFailures.increment()
            return connectFailed(reason: "connect timed out", timedOut: true)
        }
        fail(reason: "timed out", timedOut: true)
    }

    /// Stops or resumes reading responses (back-pressure). Never while connecting (P7).
    func setReading(_ on: Bool) {
        guard let socket, connected else { return }
        if on, !readingOn { lastRead = CoarseClock.now() }
        readingOn = on
        socket.setReading(on)
    }

    /// Asks for a write callback once the output drained to `low` bytes (0: no callback before empty).
    func setWriteWatermark(low: Int) {
        socket?.lowWater = low
    }

    /// Bytes came back that no response consumed: decrypted or not, in the input or still in the SSL's read-ahead
    /// buffer. A connection holding any is not reused; they would be read as the next request's response.
    var holdsUnreadBytes: Bool {
        guard socket != nil else { return false }
        if evbuffer_get_length(input) > 0 { return true }
        if let ssl { return SSL_has_pending(ssl) != 0 }
        return false
    }

    // MARK: Reports of the socket

    /// Response bytes are in the input.
    func socketReadable() {
        lastRead = CoarseClock.now()
        if let delegate {
            delegate.upstreamReadable(self)
        } else {
            // An idle pooled connection must not receive anything.
            fail(reason: "unexpected data on an idle connection", timedOut: false)
        }
    }

    /// A write left no more than the low watermark in the output.
    func socketDrained() {
        delegate?.upstreamDrained(self)
    }

    /// The connect (and TLS handshake) succeeded.
    func socketConnected() {
        connected = true
        if let tls = settings.tls, let ssl { tls.handshakeCompleted(ssl, serverName: settings.serverName) }
        if !settings.alternateAddresses.isEmpty { addressMemory?.reached(address, settings.name) }
        setTimeouts(nil)
        delegate?.upstreamConnected(self)
    }

    /// The upstream ended its side (or, for TLS, closed without a close_notify: a dirty shutdown is allowed, as
    /// responses delimited by the close do not all end with one); `writing` if a write met it.
    func socketEnded(writing: Bool) {
        if connected, writing { readAfterWriteFailure() }
        if connected {
            fail(reason: nil, timedOut: false)
        } else {
            // Before the connection is up only a TLS connection can end this way (closed mid-handshake).
            metrics?.connectFailures.increment()
            connectFailed(reason: "connect failed: closed before the TLS handshake completed", timedOut: false)
        }
    }

    /// A connect, read or write failed with `errno` `code` and, for TLS, the OpenSSL error codes queued for it.
    func socketFailed(code: Int32, tlsCodes codes: [UInt], writing: Bool) {
        if connected, writing { readAfterWriteFailure() }
        var reason = connected ? "connection error" : "connect failed"
        if let tls = settings.tls {
            tlsFailed = !codes.isEmpty
            if codes.isEmpty, code != 0, !connected {
                reason += ": " + String(cString: strerror(code))
            } else {
                let failure = tls.failureReason(ssl, errorCodes: codes)
                // After the handshake a TLS error is one of the connection, not of a handshake.
                reason += ": " + (connected ? failure.replacingOccurrences(of: "TLS handshake failed: ", with: "TLS: ")
                    : failure)
            }
        } else if code != 0 {
            reason += ": " + String(cString: strerror(code))
        }
        if tlsFailed {
            metrics?.tlsFailures.increment()
        } else if !connected {
            metrics?.connectFailures.increment()
        }
        if connected {
            fail(reason: reason, timedOut: false)
        } else {
            connectFailed(reason: reason, timedOut: false)
        }
    }

    // MARK: Write batches

    /// Bytes left the output (`drained` of them), or were added to an empty one: the write timeout counts from
    /// here. A large drain of a TLS upstream starts batching its records (``TLSWriteBatch``).
    fileprivate func wrote(drained: Int) {
        lastWrite = CoarseClock.now()
        guard drained > 0, let ssl else { return }
        if !batch.isOn {
            guard drained >= TLSWriteBatch.threshold, socket?.rateLimit == nil, let socket,
                batch.start(ssl, mss: maximumSegment(socket.descriptor))
            else { return }
            holdTail = true
            return  // the drained bytes were written already; the next records collect in the buffer
        }
        if holdTail {
            holdBatchTail()
        } else {
            flushBatch()
        }
    }

    /// Leaves what the drain left in the batch (less than a full write) to be topped up by the next drain, and
    /// arms the timer that writes it if the next drain is late. A flush after every drain wrote ~4,100 tails of
    /// a few hundred bytes per GiB, each a segment of its own for both ends of the loopback path.
    private func holdBatchTail() {
        guard batch.pending > 0 else { return }
        if tailEvent == nil {
            tailEvent = event_new(loop.base, -1, 0, { _, _, context in
                withExtendedLifetime(upstream(context)) { $0.tailDue() }
            }, selfRef?.toOpaque())
        }
        guard let tailEvent else {
            flushBatch()
            return
        }
        var delay = TLSWriteBatch.tailDelay
        _ = event_add(tailEvent, &delay)  // re-arming a pending timer moves it
    }

    /// No drain came for ``TLSWriteBatch/tailDelay``: write the batch's tail.
    private func tailDue() {
        guard socket != nil, batch.pending > 0 else { return }
        socketWritable()
    }

    /// The whole request is in the output: from now on each drain writes all it made, and what an earlier drain
    /// left in the batch goes now unless the output still holds bytes (whose drain will flush it).
    func requestWritten() {
        guard holdTail else { return }
        holdTail = false
        if let tailEvent { _ = event_del(tailEvent) }
        guard socket != nil, batch.pending > 0, evbuffer_get_length(output) == 0 else { return }
        flushBatch()  // a failure is reported from the connection's own callback, not into the caller
    }

    /// Writes the batched records; unless all went, waits for the socket: to write the rest once it is writable,
    /// or to report a failure from a callback of the connection's own (this runs in the output buffer's callback,
    /// inside the socket's write, where the socket must not be closed).
    @discardableResult
    private func flushBatch() -> TLSWriteBatch.Flush {
        let result = batch.flush()
        guard result != .done, let socket else { return result }
        if flushEvent == nil {
            flushEvent = event_new(loop.base, socket.descriptor, Int16(EV_WRITE), { _, _, context in
                withExtendedLifetime(upstream(context)) { $0.socketWritable() }
            }, selfRef?.toOpaque())
        }
        if let flushEvent { _ = event_add(flushEvent, nil) }
        return result
    }

    private func socketWritable() {
        guard socket != nil else { return }
        let before = batch.pending
        if case .failed(let code) = flushBatch() {
            if let flushEvent { _ = event_del(flushEvent) }
            // The batch's own write met the reset that follows an early answer: read the answer first, as after
            // a failed write of the socket's.
            readAfterWriteFailure()
            return fail(reason: "connection error: " + String(cString: strerror(code)), timedOut: false)
        }
        if batch.pending < before { lastWrite = CoarseClock.now() }
    }

    /// Stops batching before the connection goes idle: true when it did (nothing was left unwritten).
    func endBatch() -> Bool {
        guard batch.isOn, let ssl else { return true }
        guard batch.stop(ssl) else { return false }
        if let flushEvent { _ = event_del(flushEvent) }
        if let tailEvent { _ = event_del(tailEvent) }
        holdTail = false
        return true
    }

    /// A write failed: the upstream closed or reset while the request was still going out, as a backend does
    /// after an early answer (401, 413) to a body it will not read. That answer may still wait in the socket,
    /// unread because the socket stops at the write error (a TLS one reports it without reading). Reads
    /// what is there, up to ``lateReadLimit`` bytes, into the input, where the exchange relays it instead of
    /// answering 502. Nonblocking: it stops at the first read that would block, fails or ends.
    private func readAfterWriteFailure() {
        guard let socket else { return }
        var budget = lateReadLimit - evbuffer_get_length(input)
        if let ssl {
            var chunk = [UInt8](repeating: 0, count: 16 * 1024)
            while budget > 0 {
                ERR_clear_error()
                let count = chunk.withUnsafeMutableBytes { SSL_read(ssl, $0.baseAddress, Int32(min($0.count, budget))) }
                guard count > 0 else { break }
                _ = evbuffer_add(input, chunk, Int(count))
                budget -= Int(count)
            }
            ERR_clear_error()
        } else {
            while budget > 0 {
                let count = evbuffer_read(input, socket.descriptor, Int32(min(budget, 64 * 1024)))
                guard count > 0 else { break }
                budget -= Int(count)
            }
        }
    }

    private func fail(reason: String?, timedOut: Bool) {
        guard socket != nil else { return }
        // The delegate hears first, while unread response bytes are still in the input buffer.
        if let delegate {
            delegate.upstreamClosed(self, reason: reason, timedOut: timedOut)
        } else {
            idlePool?.remove(self)
        }
        close()
    }

    /// Closes the socket (and frees its SSL object), frees the buffers and drops the self-reference.
    func close() {
        guard let socket else { return }
        // OpenSSL marks the session of an `SSL` freed without a shutdown as not resumable, and the socket frees it
        // without one (as libevent did: every cached session died with its first connection). Unless a TLS error
        // ended it, the connection is over by our choice or the peer's EOF, so record the shutdown as done.
        if let ssl = socket.ssl, !tlsFailed { SSL_set_shutdown(ssl, SSL_SENT_SHUTDOWN | SSL_RECEIVED_SHUTDOWN) }
        timer?.free()
        timer = nil
        if let flushEvent {
            event_free(flushEvent)
            self.flushEvent = nil
        }
        if let tailEvent {
            event_free(tailEvent)
            self.tailEvent = nil
        }
        socket.close()
        self.socket = nil
        evbuffer_free(input)
        evbuffer_free(output)
        input = nil
        output = nil
        delegate = nil
        idlePool = nil
        loop.unregister(self)
        let ref = selfRef
        selfRef = nil
        ref?.release()  // may deinit self: keep last
    }
}

@inline(__always)
private func upstream(_ context: UnsafeMutableRawPointer?) -> UpstreamConnection {
    Unmanaged<UpstreamConnection>.fromOpaque(context!).takeUnretainedValue()
}

private let upstreamOutputCB: evbuffer_cb_func = { _, info, context in
    guard let info else { return }
    // Write progress, or bytes to write after none: the write timeout counts from here.
    if info.pointee.n_deleted > 0 || info.pointee.orig_size == 0 {
        upstream(context).wrote(drained: info.pointee.n_deleted)
    }
    // Only when the output was empty: bytes added later in the same turn are written by the same pass; bytes
    // added to a backed-up output wait for the socket.
    guard info.pointee.n_added > 0, info.pointee.orig_size == 0 else { return }
    upstream(context).socket?.outputGrew()
}

extension timeval {
    init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        self.init(tv_sec: Int(seconds), tv_usec: Int(attoseconds / 1_000_000_000_000))
    }
}

/// Disables Nagle's algorithm: a request head, a chunk and a response are small writes that must not wait
/// for the peer's delayed ACK (40 ms on Linux).
func setNoDelay(_ descriptor: Int32) {
    guard descriptor >= 0 else { return }
    var one: Int32 = 1
    _ = setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
}

/// The payload bytes one TCP segment of the socket carries (`TCP_MAXSEG`), or 0 if the socket does not say.
func maximumSegment(_ descriptor: Int32) -> Int {
    guard descriptor >= 0 else { return 0 }
    var mss: Int32 = 0
    var length = socklen_t(MemoryLayout<Int32>.size)
    guard getsockopt(descriptor, Int32(IPPROTO_TCP), TCP_MAXSEG, &mss, &length) == 0 else { return 0 }
    return Int(mss)
}

/// `errno` after a failed socket call (EVUTIL_SOCKET_ERROR is a macro).
func EVUTIL_SOCKET_ERROR_errno() -> Int32 {
    errno
}
