import CEventTLS
#if canImport(Glibc)
import Glibc
#endif

/// Batches a TLS upstream connection's records into large `write`s while a large body streams.
///
/// OpenSSL hands each record it seals (16 KiB of body at most) to its socket BIO at once, so a 1 GiB upload made
/// 69,921 `write`s, each running the loopback TCP path for sender and receiver. While batching, OpenSSL's buffering
/// BIO (``bufferSize``) sits between the `SSL` and its socket: records collect there and leave in one `write` when
/// it fills, or when the owner calls ``flush()``: after each drain of its output once the request is complete, and
/// while the body still comes only when no drain follows within ``tailDelay`` (16,900 `write`s per GiB; a flush
/// after every drain made 20,800). A flush
/// the socket refuses keeps the rest; the owner waits for the socket and flushes again (also when its output is
/// empty, so that no write of the socket's own follows), and closes the connection if a flush fails.
/// Batching starts at the first large drain (a small request's one record never starts it) and stops once the
/// buffer is empty and the connection goes idle, so an idle pooled connection holds no buffer.
///
/// Not under a write rate limit: a throttled body goes out a tick's worth at a time, and records held back in a
/// batch would leave in bursts past the rate's schedule.
struct TLSWriteBatch {
    /// The most the buffer holds, allocated when batching starts and freed when it stops. 64 KiB writes took a
    /// loopback sender and receiver ~25 % less system time than 16 KiB ones here, and larger ones little more
    /// (bench/README.md, stop 25).
    static let bufferSize = 64 * 1024

    /// The buffer's size for a socket whose segments carry `mss` bytes: the largest multiple of `mss` that fits in
    /// ``bufferSize``, so that each full write fills whole segments. A 64 KiB write on loopback (MSS 65,483) left a
    /// 53-byte segment behind it, which doubled the segments, and the receiver's wake-ups, per GiB (stop 31). An
    /// unknown or implausible MSS keeps ``bufferSize``.
    static func size(mss: Int) -> Int {
        guard mss >= 536, mss <= bufferSize else { return bufferSize }
        return bufferSize / mss * mss
    }
    /// How long a partial batch waits for the next drain of a body still coming before it is written on its own.
    /// A client that streams fast makes the next drain well within it (256 KiB reads every ~0.3 ms at 800 MB/s);
    /// one that stalls delays its last bytes by this much at most.
    static let tailDelay = timeval(tv_sec: 0, tv_usec: 1000)
    /// A drain at least this large starts batching.
    static let threshold = 64 * 1024

    /// The buffering BIO while batching (the `SSL`'s write BIO, with `socket` under it).
    private var buffer: OpaquePointer?
    /// The socket BIO: one reference is held for the chain while batching.
    private var socket: OpaquePointer?

    var isOn: Bool { buffer != nil }

    /// The size of the buffer while batching (``size(mss:)``), 0 when off.
    private(set) var capacity = 0
    /// The socket's MSS that ``capacity`` was made for.
    private(set) var segment = 0

    /// Bytes buffered and not yet written.
    var pending: Int {
        guard let buffer else { return 0 }
        return Int(BIO_ctrl_wpending(buffer))
    }

    /// Puts the buffer between `ssl` and its socket; false if it could not be made (records then go out one by one,
    /// as without batching).
    mutating func start(_ ssl: OpaquePointer, mss: Int) -> Bool {
        guard buffer == nil, let socketBIO = SSL_get_wbio(ssl), let made = BIO_new(BIO_f_buffer()) else { return false }
        // The last argument selects the write buffer alone (the read side is never used: the SSL reads its socket).
        let size = Self.size(mss: mss)
        guard BIO_int_ctrl(made, BIO_C_SET_BUFF_SIZE, size, 1) == 1 else {
            BIO_free(made)
            return false
        }
        _ = BIO_up_ref(socketBIO)  // the chain's; SSL_set0_wbio releases the SSL's own write reference
        _ = BIO_push(made, socketBIO)
        SSL_set0_wbio(ssl, made)
        buffer = made
        socket = socketBIO
        capacity = size
        segment = mss
        return true
    }

    /// What a flush did.
    enum Flush: Equatable {
        /// Nothing is left.
        case done
        /// The socket took only part: flush again once it is writable.
        case waiting
        /// The socket failed (the `errno` of the failed write).
        case failed(Int32)
    }

    /// Writes what is buffered.
    func flush() -> Flush {
        guard let buffer else { return .done }
        if BIO_ctrl(buffer, BIO_CTRL_FLUSH, 0, nil) > 0 && BIO_ctrl_wpending(buffer) == 0 { return .done }
        let code = errno
        return BIO_test_flags(buffer, BIO_FLAGS_SHOULD_RETRY) != 0 ? .waiting : .failed(code)
    }

    /// Takes the buffer out if it is empty: true when batching is off.
    mutating func stop(_ ssl: OpaquePointer) -> Bool {
        guard let buffer, let socket else { return true }
        guard BIO_ctrl_wpending(buffer) == 0 else { return false }
        _ = BIO_pop(buffer)  // the socket BIO keeps the chain's reference…
        SSL_set0_wbio(ssl, socket)  // …which the SSL takes over; the buffer BIO is freed
        self.buffer = nil
        self.socket = nil
        capacity = 0
        segment = 0
        return true
    }
}
