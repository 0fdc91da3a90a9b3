import CEventTLS
#if canImport(Glibc)
import Glibc
#endif

/// Reads a plain client socket into its bufferevent's input buffer in large reads.
///
/// libevent 2.1's `evbuffer_read` reads at most 4096 bytes per call (`EVBUFFER_MAX_READ`), so a bufferevent
/// reading a fast upload makes ~262,000 reads, wake-ups and processing passes per GiB. This reader reserves
/// up to 256 KiB of contiguous space in the input buffer and reads into it directly; the bufferevent keeps
/// doing the writing. It never buffers beyond the read watermark.
///
/// The space reserved is never more than the socket holds: reserving 256 KiB for a 1-byte dribble makes
/// libevent allocate a new 256 KiB chain and copy the head into it on every byte, which 1,000 slowloris
/// clients turn into a thousand large allocations a second. A read first reserves ``probeBytes``, which holds
/// a small request whole; only once a read fills that (a body is streaming in) do reads ask the socket how
/// much it holds (`FIONREAD`, one `ioctl`) and reserve that much, until the socket holds less than a probe.
final class SocketReader {
    /// The reservation of a read made without asking the socket first.
    static let probeBytes = 4096
    /// Whether reads are sized by `FIONREAD` (a body is streaming in) rather than by ``probeBytes``.
    private var sized = false
    private var event: OpaquePointer?
    private let descriptor: Int32
    private let input: OpaquePointer
    private let highWater: Int
    private let maxRead: Int
    private var active = false
    /// Called after new bytes arrived, at end of input (`eof`), or on a read error.
    private let onRead: (_ eof: Bool, _ error: Int32) -> Void

    init(base: OpaquePointer, descriptor: Int32, input: OpaquePointer, highWater: Int, maxRead: Int,
         onRead: @escaping (_ eof: Bool, _ error: Int32) -> Void) {
        self.descriptor = descriptor
        self.input = input
        self.highWater = highWater
        self.maxRead = maxRead
        self.onRead = onRead
        let context = Unmanaged.passUnretained(self).toOpaque()
        event = event_new(base, descriptor, Int16(EV_READ | EV_PERSIST), { _, _, context in
            // Held for the call: the owner's callback may close the connection, which drops the reader.
            withExtendedLifetime(Unmanaged<SocketReader>.fromOpaque(context!).takeUnretainedValue()) { $0.readable() }
        }, context)
    }

    /// Reads while `on` and the input is below the watermark; stops otherwise.
    func setReading(_ on: Bool) {
        let want = on && EvBuffer.length(input) < highWater
        guard want != active, let event else { return }
        active = want
        if want { _ = event_add(event, nil) } else { _ = event_del(event) }
    }

    private var wanted = true

    /// The owner's wish (paused or not); the watermark is applied on top.
    func want(_ on: Bool) {
        wanted = on
        setReading(on)
    }

    /// Bytes received on the socket and not read yet (`FIONREAD`; 0 on an error).
    var waitingBytes: Int { max(0, Int(cshim_readable_bytes(descriptor))) }

    /// Re-applies the watermark after the owner consumed input.
    func refresh() {
        setReading(wanted)
    }

    private func readable() {
        var room = min(maxRead, highWater - EvBuffer.length(input))
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
        // libevent freezes the end of a bufferevent's input while the bufferevent itself does not read.
        _ = evbuffer_unfreeze(input, 0)
        guard evbuffer_reserve_space(input, room, &vector, 1) > 0 else {
            setReading(false)
            onRead(false, ENOMEM)
            return
        }
        let count = read(descriptor, vector.iov_base, min(room, vector.iov_len))
        let code = count < 0 ? errno : 0  // before anything else can change errno
        if count > 0 {
            if probing, count == room { sized = true }  // the socket may hold more: size the next read
            vector.iov_len = count
            _ = evbuffer_commit_space(input, &vector, 1)
            onRead(false, 0)
        } else if count == 0 {
            _ = evbuffer_commit_space(input, &vector, 0)
            setReading(false)
            onRead(true, 0)
        } else {
            _ = evbuffer_commit_space(input, &vector, 0)
            if code == EAGAIN || code == EINTR { return }
            setReading(false)
            onRead(false, code)
        }
    }

    /// Frees the event (the socket belongs to the bufferevent).
    func close() {
        if let event {
            event_free(event)
            self.event = nil
        }
        active = false
    }

    deinit {
        close()
    }
}
