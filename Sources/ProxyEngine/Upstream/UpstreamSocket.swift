import CEventTLS
#if canImport(Glibc)
import Glibc
#endif

/// One attempt at a connection to an upstream address: the socket, its `SSL` for a TLS upstream, and the events
/// that connect it, shake hands, and move bytes between it and its owner's two evbuffers. No bufferevent.
///
/// An ``UpstreamConnection`` owns the buffers, which outlive a failed attempt (the request bytes queued for it go
/// to the next address as they are); it makes one socket per attempt and reports to itself what the socket saw.
///
/// Until stop 49 an OpenSSL bufferevent did this. Around each `SSL_read` and `SSL_write` it cleared the thread's
/// OpenSSL error queue (`ERR_clear_error`: ~840 instructions in OpenSSL 3.0, which clears all 16 slots), ran its
/// callbacks through the loop's deferred queue, and read or wrote only when `epoll` said so: partgate reached into
/// its `struct bufferevent` to make its write event active (a response would otherwise wait for a loop wake-up)
/// and to read records OpenSSL had already read ahead. Here:
/// - the error queue is cleared only when it holds something (`ERR_peek_error`, a few instructions);
/// - bytes added to the empty output are written at the end of the current callbacks (the write event is made
///   active); only what the socket did not take waits for `EPOLLOUT`;
/// - a read pass decrypts every record OpenSSL read ahead (`SSL_has_pending`), up to the largest single read,
///   and makes the read event active again if that left some;
/// - the callbacks run at once, from the socket's own events: the bytes a read pass got are reported before the
///   end of input it met.
///
/// The mapping of OpenSSL's results is libevent's (with dirty shutdowns allowed): `SSL_ERROR_ZERO_RETURN`, and
/// `SSL_ERROR_SYSCALL` with nothing queued, are the end of input; any other failure is an error, with the codes
/// OpenSSL queued for it.
final class UpstreamSocket {
    enum Phase {
        /// The TCP connect is under way.
        case connecting
        /// The TLS handshake is under way.
        case handshaking
        /// Bytes flow.
        case open
        /// ``close()`` ran: nothing happens any more.
        case closed
    }

    /// The socket (-1 if none could be made: the attempt then fails on the next loop turn).
    let descriptor: Int32
    /// The TLS session (owned: freed by ``close()``), nil for a plain upstream.
    let ssl: OpaquePointer?
    private(set) var phase = Phase.connecting
    /// The write rate limit (``UpstreamConnection/limitWriteRate(_:)``).
    var rateLimit: UpstreamRateLimit?
    /// ``UpstreamConnection/socketDrained()`` is called after a write leaves no more than this many bytes.
    var lowWater = 0

    private unowned(unsafe) let owner: UpstreamConnection
    private let input: OpaquePointer
    private let output: OpaquePointer
    private let maxIO: Int
    private let base: OpaquePointer
    private var readEvent: OpaquePointer?
    private var writeEvent: OpaquePointer?
    /// Waits for the next tick of a rate limit whose bucket is empty.
    private var rateEvent: OpaquePointer?
    /// The owner wants responses read (``setReading(_:)``).
    private var reading = true
    /// The read event is added.
    private var readAdded = false
    /// The write event is added (waits for `EPOLLOUT`) or made active.
    private var writePending = false
    /// A TLS write waits for the socket to be readable, or a TLS read for it to be writable (a renegotiation or
    /// key update, which TLS 1.3 and the context's options make rare).
    private var writeWantsRead = false
    private var readWantsWrite = false
    /// The `errno` of a connect that failed at once (or of the socket that could not be made).
    private var connectError: Int32 = 0

    /// A socket for `address`, connecting at once; nil (with `ssl` freed) when libevent cannot allocate.
    init?(
        owner: UpstreamConnection, base: OpaquePointer, address: SocketAddress, ssl: OpaquePointer?,
        input: OpaquePointer, output: OpaquePointer, maxIO: Int
    ) {
        self.owner = owner
        self.ssl = ssl
        self.input = input
        self.output = output
        self.maxIO = maxIO
        self.base = base
        let family = address.withSockaddr { address, _ in Int32(address.pointee.sa_family) }
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        descriptor = socket(family, type, 0)
        if descriptor < 0 { connectError = errno }
        let context = Unmanaged.passUnretained(self).toOpaque()
        // Each callback holds the socket for its call: the owner may close (and drop) it from a report.
        readEvent = event_new(base, descriptor, Int16(EV_READ | EV_PERSIST), { _, _, context in
            withExtendedLifetime(Unmanaged<UpstreamSocket>.fromOpaque(context!).takeUnretainedValue()) {
                $0.readReady()
            }
        }, context)
        writeEvent = event_new(base, descriptor, Int16(EV_WRITE), { _, _, context in
            withExtendedLifetime(Unmanaged<UpstreamSocket>.fromOpaque(context!).takeUnretainedValue()) {
                $0.writeReady()
            }
        }, context)
        guard readEvent != nil, writeEvent != nil else {
            close()
            return nil
        }
        connect(address)
    }

    deinit {
        close()
    }

    private func connect(_ address: SocketAddress) {
        guard connectError == 0 else { return activateWrite() }  // no socket: fail from the loop
        setNoDelay(descriptor)
        let result = address.withSockaddr { Glibc.connect(descriptor, $0, socklen_t($1)) }
        if result == 0 {
            activateWrite()  // connected at once: go on from the loop, as after a wait
        } else if errno == EINPROGRESS {
            addWrite()
        } else {
            connectError = errno
            activateWrite()
        }
    }

    // MARK: Events

    private func readReady() {
        switch phase {
        case .handshaking:
            handshake()
        case .open:
            if writeWantsRead {
                writeWantsRead = false
                writePass()
                guard phase == .open else { return }
                if !reading { return removeRead() }
            }
            readPass()
        case .connecting, .closed:
            break
        }
    }

    private func writeReady() {
        writePending = false
        switch phase {
        case .connecting:
            connected()
        case .handshaking:
            handshake()
        case .open:
            if readWantsWrite {
                readWantsWrite = false
                if reading { readPass() }
                guard phase == .open else { return }
            }
            writePass()
        case .closed:
            break
        }
    }

    /// The TCP connect finished, well or not.
    private func connected() {
        var code = connectError
        if code == 0 {
            var length = socklen_t(MemoryLayout<Int32>.size)
            if getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &code, &length) != 0 { code = errno }
        }
        guard code == 0 else { return owner.socketFailed(code: code, tlsCodes: [], writing: false) }
        guard let ssl else { return opened() }
        guard SSL_set_fd(ssl, descriptor) == 1 else {
            return owner.socketFailed(code: 0, tlsCodes: TLSError.drainErrorQueue(), writing: false)
        }
        // A write that waits for the socket is retried from the output's first chain, whose bytes libevent may have
        // moved meanwhile: adding to a buffer realigns a short, partly drained last chain (`evbuffer_add`,
        // `evbuffer_expand`). Without this mode OpenSSL refuses the retry (`bad write retry`); libevent's OpenSSL
        // bufferevent set it too.
        _ = SSL_ctrl(ssl, SSL_CTRL_MODE, Int(SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER), nil)
        SSL_set_connect_state(ssl)
        phase = .handshaking
        handshake()
    }

    private func handshake() {
        guard let ssl else { return }
        Self.clearErrors()
        let result = SSL_do_handshake(ssl)
        if result == 1 { return opened() }
        let code = errno
        switch SSL_get_error(ssl, result) {
        case SSL_ERROR_WANT_READ:
            addRead()
        case SSL_ERROR_WANT_WRITE:
            addWrite()
        case let error:
            end(error, code: code, writing: false)
        }
    }

    private func opened() {
        phase = .open
        if reading { addRead() } else { removeRead() }
        if EvBuffer.length(output) > 0 { activateWrite() }
        owner.socketConnected()
    }

    /// The owner's call: an `SSL` call failed with `error` (`SSL_get_error`), after which `errno` was `code`.
    private func end(_ error: Int32, code: Int32, writing: Bool) {
        removeRead()
        if error == SSL_ERROR_ZERO_RETURN || (error == SSL_ERROR_SYSCALL && ERR_peek_error() == 0) {
            owner.socketEnded(writing: writing)
        } else {
            owner.socketFailed(code: code, tlsCodes: TLSError.drainErrorQueue(), writing: writing)
        }
    }

    // MARK: Reading

    /// Turns reading responses on or off (the owner's back-pressure); it takes effect once the socket is open.
    func setReading(_ on: Bool) {
        reading = on
        guard phase == .open else { return }
        if !on { return removeRead() }
        addRead()
        // Records OpenSSL read ahead are not in the socket any more: `epoll` would not report them.
        if let ssl, SSL_has_pending(ssl) != 0, let readEvent { event_active(readEvent, Int32(EV_READ), 0) }
    }

    /// Reads what the socket holds, up to ``maxIO`` bytes, into the input, and reports it; then the end of input
    /// or a failure, if the pass met one.
    private func readPass() {
        var budget = maxIO
        var got = false
        var ending: (error: Int32, code: Int32)?
        var failedCode: Int32 = 0
        var more = false
        while budget > 0 {
            let room = min(budget, 16 * 1024)
            var vector = iovec()
            guard evbuffer_reserve_space(input, room, &vector, 1) > 0 else {
                failedCode = ENOMEM
                break
            }
            let count: Int
            if let ssl {
                Self.clearErrors()
                let result = SSL_read(ssl, vector.iov_base, Int32(min(room, vector.iov_len)))
                let code = errno
                if result > 0 {
                    count = Int(result)
                } else {
                    _ = evbuffer_commit_space(input, &vector, 0)
                    let error = SSL_get_error(ssl, result)
                    if error == SSL_ERROR_WANT_WRITE {
                        readWantsWrite = true
                        addWrite()
                    } else if error != SSL_ERROR_WANT_READ {
                        ending = (error, code)
                    }
                    break
                }
            } else {
                let result = read(descriptor, vector.iov_base, min(room, vector.iov_len))
                let code = errno
                if result <= 0 {
                    _ = evbuffer_commit_space(input, &vector, 0)
                    if result == 0 {
                        ending = (SSL_ERROR_ZERO_RETURN, 0)
                    } else if code != EAGAIN, code != EINTR {
                        failedCode = code
                    }
                    break
                }
                count = result
            }
            vector.iov_len = count
            _ = evbuffer_commit_space(input, &vector, 1)
            got = true
            budget -= count
            if let ssl {
                more = SSL_has_pending(ssl) != 0
            } else {
                more = count == room  // a short read emptied the socket
            }
            if !more { break }
        }
        if got {
            owner.socketReadable()
            guard phase == .open else { return }
        }
        if failedCode != 0 {
            removeRead()
            return owner.socketFailed(code: failedCode, tlsCodes: [], writing: false)
        }
        if let ending {
            if ssl == nil {
                removeRead()
                return owner.socketEnded(writing: false)
            }
            return end(ending.error, code: ending.code, writing: false)
        }
        // The budget ran out with decrypted bytes waiting: read them on the next pass, not when `epoll` says.
        if more, reading, ssl != nil, let readEvent { event_active(readEvent, Int32(EV_READ), 0) }
    }

    // MARK: Writing

    /// Bytes were added to the empty output: write them once the current callbacks are done.
    func outputGrew() {
        guard phase == .open, !writePending, rateEvent.map({ event_pending($0, Int16(EV_TIMEOUT), nil) == 0 }) ?? true
        else { return }
        activateWrite()
    }

    /// Writes what the socket and the rate limit take, up to ``maxIO`` bytes; the rest waits for `EPOLLOUT` or
    /// the rate limit's next tick. Reports a drain to the low watermark, or a failure.
    private func writePass() {
        guard phase == .open else { return }
        let length = EvBuffer.length(output)
        guard length > 0 else { return }
        var allowed = maxIO
        if rateLimit != nil {
            let tokens = rateLimit!.available(now: CoarseClock.now())
            guard tokens > 0 else { return waitForTokens() }
            allowed = min(allowed, tokens)
        }
        var written = 0
        var failure: (error: Int32, code: Int32)?
        if let ssl {
            written = tlsWrite(ssl, allowed: allowed, failure: &failure)
            if written > 0 { _ = evbuffer_drain(output, written) }
        } else {
            let count = evbuffer_write_atmost(output, descriptor, allowed)
            let code = errno
            if count >= 0 {
                written = Int(count)
            } else if code != EAGAIN, code != EINTR {
                failure = (SSL_ERROR_SYSCALL, code)
            }
        }
        if rateLimit != nil { rateLimit!.spend(written) }
        guard phase == .open else { return }
        if let failure {
            if ssl != nil { return end(failure.error, code: failure.code, writing: true) }
            removeRead()
            return owner.socketFailed(code: failure.code, tlsCodes: [], writing: true)
        }
        if written > 0, EvBuffer.length(output) <= lowWater {
            owner.socketDrained()
            guard phase == .open else { return }
        }
        guard EvBuffer.length(output) > 0, !writePending, !writeWantsRead else { return }
        if rateLimit != nil, rateLimit!.available(now: CoarseClock.now()) <= 0 { return waitForTokens() }
        addWrite()
    }

    /// `SSL_write`s the output's first chains (up to eight) that start within `allowed` bytes; returns the bytes
    /// written (not yet drained). Each chain goes whole, unless a rate limit is on: then no more than `allowed`.
    /// (Cut at `allowed` without one, a 256 KiB pass of an upload left the last few hundred bytes of its last
    /// chain to a pass of their own: one more small record and `write`, ~2,800 per GiB.)
    private func tlsWrite(_ ssl: OpaquePointer, allowed: Int, failure: inout (error: Int32, code: Int32)?) -> Int {
        var written = 0
        let exact = rateLimit != nil
        withUnsafeTemporaryAllocation(of: iovec.self, capacity: 8) { vectors in
            let count = Int(evbuffer_peek(output, allowed, nil, vectors.baseAddress, 8))
            for index in 0..<min(count, 8) {
                guard written < allowed else { break }
                let length = exact ? min(vectors[index].iov_len, allowed - written) : vectors[index].iov_len
                guard length > 0 else { break }
                Self.clearErrors()
                let result = SSL_write(ssl, vectors[index].iov_base, Int32(length))
                let code = errno
                if result > 0 {
                    written += Int(result)
                    if Int(result) < length { break }
                    continue
                }
                switch SSL_get_error(ssl, result) {
                case SSL_ERROR_WANT_WRITE:
                    break
                case SSL_ERROR_WANT_READ:
                    writeWantsRead = true
                    addRead()
                case let error:
                    failure = (error, code)
                }
                break
            }
        }
        return written
    }

    /// The rate limit's bucket is empty: write again at its next tick.
    private func waitForTokens() {
        guard let rateLimit else { return }
        if rateEvent == nil {
            rateEvent = event_new(base, -1, 0, { _, _, context in
                withExtendedLifetime(Unmanaged<UpstreamSocket>.fromOpaque(context!).takeUnretainedValue()) {
                    $0.writePass()
                }
            }, Unmanaged.passUnretained(self).toOpaque())
        }
        guard let rateEvent else { return addWrite() }
        let wait = rateLimit.untilNextTick(now: CoarseClock.now()) + 1
        var time = timeval(tv_sec: Int(wait / 1000), tv_usec: Int(wait % 1000) * 1000)
        _ = event_add(rateEvent, &time)
    }

    // MARK: Events on and off

    private func addRead() {
        guard !readAdded, let readEvent else { return }
        readAdded = true
        _ = event_add(readEvent, nil)
    }

    private func removeRead() {
        guard readAdded, let readEvent else { return }
        readAdded = false
        _ = event_del(readEvent)
    }

    /// Waits for `EPOLLOUT`.
    private func addWrite() {
        guard let writeEvent else { return }
        writePending = true
        _ = event_add(writeEvent, nil)
    }

    /// Runs the write callback once the current callbacks are done, without waiting for `EPOLLOUT` (a write that
    /// blocks adds the event from the callback, where it is no longer active: `event_add` skips an active event).
    private func activateWrite() {
        guard let writeEvent else { return }
        writePending = true
        event_active(writeEvent, Int32(EV_WRITE), 0)
    }

    /// Clears this thread's OpenSSL error queue if it holds anything: `SSL_get_error` reads it.
    @inline(__always)
    private static func clearErrors() {
        if ERR_peek_error() != 0 { ERR_clear_error() }
    }

    // MARK: Closing

    /// Frees the events and the `SSL` and closes the socket; nothing is reported after it. Idempotent.
    func close() {
        guard phase != .closed else { return }
        phase = .closed
        if let readEvent { event_free(readEvent) }
        if let writeEvent { event_free(writeEvent) }
        if let rateEvent { event_free(rateEvent) }
        readEvent = nil
        writeEvent = nil
        rateEvent = nil
        if let ssl { SSL_free(ssl) }
        if descriptor >= 0 { Glibc.close(descriptor) }
    }
}
