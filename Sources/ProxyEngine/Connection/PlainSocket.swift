import CEventTLS
#if canImport(Glibc)
import Glibc
#endif

/// A plain client socket that the engine reads and writes itself, through two evbuffers and two events: no
/// bufferevent.
///
/// Reading: libevent 2.1's `evbuffer_read` reads at most 4096 bytes per call (`EVBUFFER_MAX_READ`), so a
/// bufferevent reading a fast upload makes ~262,000 reads, wake-ups and processing passes per GiB. This reserves
/// up to 256 KiB of contiguous space in the input buffer and reads into it directly. It never buffers beyond the
/// read watermark. The space reserved is never more than the socket holds: reserving 256 KiB for a 1-byte
/// dribble makes libevent allocate a new 256 KiB chain and copy the head into it on every byte, which 1,000
/// slowloris clients turn into a thousand large allocations a second. A read first reserves ``probeBytes``,
/// which holds a small request whole; only once a read fills that (a body is streaming in) do reads ask the
/// socket how much it holds (`FIONREAD`, one `ioctl`) and reserve that much, until the socket holds less than a
/// probe.
///
/// Writing: bytes added to the output are written straight to the socket once the current callbacks are done
/// (the write event is made active, not added: an enabled write event costs two `epoll_ctl` calls and a wake-up
/// per response). Only what the socket did not take waits for `EPOLLOUT`.
///
/// A bufferevent did the writing until stop 48: it and its two internal events held ~0.7 KiB per idle
/// connection that this does without (bench/README.md), and its deferred output callbacks cost a second pass
/// through the loop per response.
final class PlainSocket {
    enum Event {
        /// New bytes are in the input.
        case readable
        /// The peer ended its side (read returned 0).
        case endOfInput
        /// A read or write failed (`errno`); reading has stopped.
        case failed(Int32, writing: Bool)
        /// The output was written out whole.
        case drained
    }

    /// The reservation of a read made without asking the socket first.
    static let probeBytes = 4096
    let descriptor: Int32
    let input: OpaquePointer
    let output: OpaquePointer
    private var readEvent: OpaquePointer?
    private var writeEvent: OpaquePointer?
    private var outputWatch: OpaquePointer?
    private let highWater: Int
    private let maxIO: Int
    /// Whether reads are sized by `FIONREAD` (a body is streaming in) rather than by ``probeBytes``.
    private var sized = false
    private var reading = false
    private var wanted = true
    /// The write event is active (a write runs at the end of the loop turn).
    private var flushScheduled = false
    /// The write event waits for `EPOLLOUT`: the last write left bytes the socket would not take.
    private var writeArmed = false
    private var closed = false
    private let onEvent: (Event) -> Void

    /// Takes the socket (closed by ``close()``); nil, with the socket closed, when libevent cannot allocate.
    init?(base: OpaquePointer, descriptor: Int32, highWater: Int, maxIO: Int, onEvent: @escaping (Event) -> Void) {
        self.descriptor = descriptor
        self.highWater = highWater
        self.maxIO = maxIO
        self.onEvent = onEvent
        guard let input = evbuffer_new() else {
            Glibc.close(descriptor)
            return nil
        }
        guard let output = evbuffer_new() else {
            evbuffer_free(input)
            Glibc.close(descriptor)
            return nil
        }
        self.input = input
        self.output = output
        let context = Unmanaged.passUnretained(self).toOpaque()
        // Held for the call: the owner's callback may close the connection, which drops this object.
        readEvent = event_new(base, descriptor, Int16(EV_READ | EV_PERSIST), { _, _, context in
            withExtendedLifetime(Unmanaged<PlainSocket>.fromOpaque(context!).takeUnretainedValue()) { $0.readable() }
        }, context)
        writeEvent = event_new(base, descriptor, Int16(EV_WRITE), { _, _, context in
            withExtendedLifetime(Unmanaged<PlainSocket>.fromOpaque(context!).takeUnretainedValue()) { $0.writable() }
        }, context)
        outputWatch = evbuffer_add_cb(output, { _, info, context in
            guard let info, info.pointee.n_added > 0 else { return }
            Unmanaged<PlainSocket>.fromOpaque(context!).takeUnretainedValue().outputGrew()
        }, context)
        guard readEvent != nil, writeEvent != nil, outputWatch != nil else {
            close()
            return nil
        }
    }

    // MARK: Reading

    /// The owner's wish (paused or not); the read watermark is applied on top.
    func want(_ on: Bool) {
        wanted = on
        setReading(on)
    }

    /// Re-applies the watermark after the owner consumed input.
    func refresh() {
        setReading(wanted)
    }

    /// Bytes received on the socket and not read yet (`FIONREAD`; 0 on an error).
    var waitingBytes: Int { max(0, Int(cshim_readable_bytes(descriptor))) }

    private func setReading(_ on: Bool) {
        let want = on && EvBuffer.length(input) < highWater
        guard want != reading, let readEvent else { return }
        reading = want
        if want { _ = event_add(readEvent, nil) } else { _ = event_del(readEvent) }
    }

    private func readable() {
        var room = min(maxIO, highWater - EvBuffer.length(input))
        guard room > 0 else {
            setReading(false)
            return
        }
        let probing = !sized
        if sized {
            let waiting = cshim_readable_bytes(descriptor)
            if waiting >= 0 { room = min(room, max(Int(waiting), 1)) }  // 0: end of input or an error to read
            sized = waiting >= Self.probeBytes
        } else {
            room = min(room, Self.probeBytes)
        }
        var vector = iovec()
        guard evbuffer_reserve_space(input, room, &vector, 1) > 0 else {
            setReading(false)
            onEvent(.failed(ENOMEM, writing: false))
            return
        }
        let count = read(descriptor, vector.iov_base, min(room, vector.iov_len))
        let code = count < 0 ? errno : 0  // before anything else can change errno
        if count > 0 {
            if probing, count == room { sized = true }  // the socket may hold more: size the next read
            vector.iov_len = count
            _ = evbuffer_commit_space(input, &vector, 1)
            onEvent(.readable)
        } else if count == 0 {
            _ = evbuffer_commit_space(input, &vector, 0)
            setReading(false)
            onEvent(.endOfInput)
        } else {
            _ = evbuffer_commit_space(input, &vector, 0)
            if code == EAGAIN || code == EINTR { return }
            setReading(false)
            onEvent(.failed(code, writing: false))
        }
    }

    // MARK: Writing

    /// Bytes were added to the output: write them once the current callbacks are done (unless a write already
    /// waits for the socket).
    private func outputGrew() {
        guard !writeArmed, !flushScheduled, let writeEvent else { return }
        flushScheduled = true
        event_active(writeEvent, Int32(EV_WRITE), 0)
    }

    /// Writes what the socket takes; waits for `EPOLLOUT` for the rest, or reports ``Event/drained``.
    private func writable() {
        flushScheduled = false
        writeArmed = false
        guard EvBuffer.length(output) > 0 else { return }
        let written = evbuffer_write_atmost(output, descriptor, maxIO)
        let code = written < 0 ? errno : 0  // before anything else can change errno
        if written < 0, code != EAGAIN, code != EINTR {
            setReading(false)
            onEvent(.failed(code, writing: true))
            return
        }
        if EvBuffer.length(output) > 0 {
            // Not active and not pending here: libevent took the event off both queues before this call.
            writeArmed = true
            _ = event_add(writeEvent, nil)
        } else {
            onEvent(.drained)
        }
    }

    // MARK: Closing

    /// Frees the events and buffers and closes the socket. The object must not be used after it.
    func close() {
        guard !closed else { return }
        closed = true
        if let outputWatch {
            _ = evbuffer_remove_cb_entry(output, outputWatch)
            self.outputWatch = nil
        }
        if let readEvent {
            event_free(readEvent)
            self.readEvent = nil
        }
        if let writeEvent {
            event_free(writeEvent)
            self.writeEvent = nil
        }
        evbuffer_free(input)
        evbuffer_free(output)
        Glibc.close(descriptor)
    }

    deinit {
        close()
    }
}
