import CEventTLS
#if canImport(Glibc)
import Glibc
#endif

/// A request body held until the whole request passed policy (`forward: spool`), then sent upstream after a
/// head with its exact Content-Length.
///
/// Bytes are copied into an evbuffer of dense chains (not moved: a moved input chain can hold far more
/// capacity than bytes, and the memory bound would lie). Once the body outgrows `memoryLimit`, everything
/// moves to an unlinked ``SpoolFile``, and the evbuffer only stages writes to it (`stagingBytes` at a
/// time). So a spool holds at most `max(memoryLimit, stagingBytes)` plus one write and one 64 KiB chain in
/// memory, whatever the body size; `limits.body_bytes` bounds the file (the body plus the re-encoding
/// overhead).
///
/// A small body (at most ``smallBytes``, and within `memoryLimit`) is held in one allocation instead (``SpoolBytes``), which a
/// worker reuses for the next one (``reuse(memoryLimit:stagingBytes:directory:)``): the bodies of small forms,
/// spooled on `forward: spool` routes and, on `forward: stream` routes, when they arrived whole with their head
/// (`buffer_small_bodies`), cost no allocation of their own.
///
/// Owns its evbuffer and its file, and frees both in ``close()`` (or `deinit`): the file has no name, so
/// closing it is deleting it. The owner closes the spool when its request ends, on every path. The one
/// other holder of the file is a `sendfile` segment in a plain upstream's output (see
/// ``send(to:sendfile:highWater:slice:)``), which libevent closes once its bytes were sent or the
/// connection's buffers are freed.
final class Spool {
    /// The largest body held in ``small`` (a few TLS records' worth), copied after its head by ``copyOut(_:)``.
    static let smallBytes = 64 * 1024
    private var memoryLimit: Int
    /// The staging size of a spilled spool: file writes happen in pieces of about this size.
    private var stagingBytes: Int
    private var directory: String
    /// A small body, while it fits ``smallBytes`` and `memoryLimit` and nothing went to `buffer`.
    private var small = SpoolBytes()
    /// The body (before it spilled, once it outgrew ``small``) or the bytes not yet written to the file.
    private var buffer: OpaquePointer?
    private var coalescing = CoalescingOutput()
    private(set) var file: SpoolFile?
    /// The file's `sendfile` segment while pieces of it are still to be queued (a plain upstream).
    private var segment: OpaquePointer?
    /// Bytes written so far: the Content-Length once ``finish()`` returned.
    private(set) var length: Int64 = 0
    /// Bytes handed to the upstream's output so far.
    private(set) var sent: Int64 = 0
    /// The first failure: later writes are ignored, and the request must be answered with an error.
    private(set) var failure: SpoolError?

    /// - Parameters:
    ///   - memoryLimit: body bytes kept in memory before the spool moves to a file (`spool_memory`).
    ///   - stagingBytes: once in a file, bytes gathered per file write (the engine's largest single I/O).
    ///   - directory: where the file is created.
    init(memoryLimit: Int, stagingBytes: Int, directory: String) {
        guard let buffer = evbuffer_new() else { fatalError("libevent: evbuffer_new failed") }
        self.buffer = buffer
        self.memoryLimit = max(0, memoryLimit)
        self.stagingBytes = max(1, stagingBytes)
        self.directory = directory
    }

    deinit {
        close()
    }

    /// Whether the body outgrew memory and lives in the file.
    var isSpilled: Bool { file != nil }

    /// Bytes held in memory.
    var memoryBytes: Int { small.count + (buffer.map(EvBuffer.length) ?? 0) }

    /// Whether `count` more bytes keep the body in ``small``.
    private func fitsSmall(_ count: Int) -> Bool {
        file == nil && small.count + count <= min(memoryLimit, Self.smallBytes) && buffer.map(EvBuffer.length) == 0
    }

    /// Moves ``small`` into the evbuffer (the body outgrew it).
    private func flushSmall(into buffer: OpaquePointer) {
        guard !small.isEmpty else { return }
        coalescing.add(buffer, small.bytes)
        small.removeAll(keeping: 2 * Self.smallBytes)
    }

    /// Appends body bytes (copied). A failure is kept in ``failure``.
    func write(_ bytes: UnsafeRawBufferPointer) {
        guard failure == nil, let buffer, !bytes.isEmpty else { return }
        if fitsSmall(bytes.count) {
            small.append(bytes)
            length += Int64(bytes.count)
            return
        }
        flushSmall(into: buffer)
        coalescing.add(buffer, bytes)
        length += Int64(bytes.count)
        do {
            if let file {
                if EvBuffer.length(buffer) >= stagingBytes { try file.append(draining: buffer) }
            } else if EvBuffer.length(buffer) > memoryLimit {
                let file = try SpoolFile(directory: directory)
                self.file = file
                try file.append(draining: buffer)
            }
        } catch {
            failure = error
        }
    }

    /// Appends `count` bytes that `fill` writes into one region (``BodySink``), while the body stays small (see
    /// ``smallBytes``); false, with nothing written, otherwise (``write(_:)`` then takes the pieces).
    func gather(count: Int, _ fill: (UnsafeMutableRawBufferPointer) -> Void) -> Bool {
        guard failure == nil, buffer != nil, fitsSmall(count) else { return false }
        small.append(count: count, fill)
        length += Int64(count)
        return true
    }

    /// The body is complete: writes what is staged to the file.
    /// - Throws: the first ``SpoolError`` of the spool.
    func finish() throws(SpoolError) {
        if let failure { throw failure }
        guard let file, let buffer else { return }
        do {
            try file.append(draining: buffer)
        } catch {
            failure = error
            throw error
        }
    }

    /// Hands the body to an upstream's output, after its head; returns true once all of it is there.
    ///
    /// A body in memory moves in at once (its chains are relinked). A file goes to a plain upstream as chains
    /// of one `sendfile` segment, `slice` bytes each (no bytes in memory). For a TLS upstream libevent would map
    /// the whole segment (`mmap`, and every page `SSL_write` touched stays resident until the segment is gone),
    /// so the file is read in slices instead. Either way pieces are added only while the output holds less than
    /// `highWater`: call again from the drained-write callback.
    /// - Parameters:
    ///   - output: the upstream's output evbuffer.
    ///   - sendfile: the output drains to a plain socket (`EVBUFFER_FLAG_DRAINS_TO_FD`): file segments go by
    ///     `sendfile`.
    ///   - highWater: stop adding slices once the output holds this many bytes.
    ///   - slice: bytes per `sendfile` chain, or read per slice; below ``CoalescingOutput/chainSize``, also the
    ///     largest chain handed to the output (a rate-limited TLS upstream).
    /// - Throws: ``SpoolError`` (`read`, `send`).
    func send(to output: OpaquePointer, sendfile: Bool, highWater: Int, slice: Int) throws(SpoolError) -> Bool {
        guard let buffer else { throw SpoolError(.send, EBADF) }
        guard let file else {
            flushSmall(into: buffer)
            if slice < CoalescingOutput.chainSize {
                // A rate-limited TLS upstream: chains no larger than a slice (see CoalescingOutput).
                var writer = CoalescingOutput()
                while EvBuffer.length(buffer) > 0, let chain = EvBuffer.firstChain(buffer) {
                    writer.add(output, chain, chainLimit: slice)
                    EvBuffer.drain(buffer, chain.count)
                }
            }
            _ = evbuffer_add_buffer(output, buffer)  // all of it, or what is left (nothing, in practice)
            sent = length
            return true
        }
        if sendfile {
            // libevent's Linux `sendfile` sends a chain whole, whatever the write asked for (the largest single
            // write, a rate limit's bucket): one chain for the whole file was one call that could send
            // all of it while the upstream kept reading, the loop's other connections (and this upstream's early
            // answer) waiting. Chains of `slice` bytes, queued while the output holds less than `highWater`, keep
            // each write to a slice, as for any other write (nginx's `sendfile_max_chunk`).
            if segment == nil, sent < length { segment = try Self.segment(of: file, length: length) }
            while sent < length, EvBuffer.length(output) < highWater, let segment {
                let count = min(Int64(max(slice, 1)), length - sent)
                // On failure libevent drops only the reference it took for the chain; ours goes in `close()`.
                guard evbuffer_add_file_segment(output, segment, sent, count) == 0 else { throw SpoolError(.send, 0) }
                sent += count
            }
            if sent == length { releaseSegment() }
            return sent == length
        }
        while sent < length, EvBuffer.length(output) < highWater {
            let count = Int(min(Int64(max(slice, 1)), length - sent))
            var vector = iovec()
            guard evbuffer_reserve_space(output, count, &vector, 1) > 0, let base = vector.iov_base else {
                throw SpoolError(.send, ENOMEM)
            }
            let read: Int
            do {
                let space = UnsafeMutableRawBufferPointer(start: base, count: min(count, vector.iov_len))
                read = try file.read(into: space, at: sent)
            } catch {
                _ = evbuffer_commit_space(output, &vector, 0)
                throw error
            }
            vector.iov_len = read
            _ = evbuffer_commit_space(output, &vector, 1)
            sent += Int64(read)
        }
        return sent == length
    }

    /// A `sendfile` segment of the whole file, with a descriptor of its own: libevent closes it with the last chain
    /// that refers to the segment (once its bytes were sent, or when the connection's buffers are freed). An
    /// upstream connection's buffers can outlive the request that filled them, so a chain must never refer to the
    /// spool's own descriptor: closed with the request, its number could already name another file.
    private static func segment(of file: SpoolFile, length: Int64) throws(SpoolError) -> OpaquePointer {
        let copy = fcntl(file.descriptor, F_DUPFD_CLOEXEC, 0)
        guard copy >= 0 else { throw SpoolError(.send, errno) }
        let flags = UInt32(EVBUF_FS_CLOSE_ON_FREE | EVBUF_FS_DISABLE_LOCKING)
        guard let segment = evbuffer_file_segment_new(copy, 0, length, flags) else {
            let code = errno
            Glibc.close(copy)
            throw SpoolError(.send, code)
        }
        return segment
    }

    /// Drops the spool's reference to its segment; the chains queued keep theirs.
    private func releaseSegment() {
        guard let segment else { return }
        evbuffer_file_segment_free(segment)
        self.segment = nil
    }

    /// Hands a body held in memory to `write` piece by piece (copied), and forgets it: for a TLS upstream, a small
    /// body copied after its head goes out in the head's TLS record, where moved chains would each make a record
    /// (and a `write`) of their own. Returns false, doing nothing, for a spilled spool.
    func copyOut(_ write: (UnsafeRawBufferPointer) -> Void) -> Bool {
        guard file == nil, let buffer else { return false }
        if !small.isEmpty {
            write(small.bytes)
            small.removeAll(keeping: 2 * Self.smallBytes)
        }
        while let chain = EvBuffer.firstChain(buffer) {
            write(chain)
            EvBuffer.drain(buffer, chain.count)
        }
        sent = length
        return true
    }

    /// Readies a spool whose body was sent whole from memory for the next request, with that request's settings;
    /// false (the caller drops it) for one that failed, spilled or was closed.
    func reuse(memoryLimit: Int, stagingBytes: Int, directory: String) -> Bool {
        guard failure == nil, file == nil, let buffer, sent == length else { return false }
        EvBuffer.drain(buffer, EvBuffer.length(buffer))
        small.removeAll(keeping: 2 * Self.smallBytes)
        coalescing.forget()
        length = 0
        sent = 0
        self.memoryLimit = max(0, memoryLimit)
        self.stagingBytes = max(1, stagingBytes)
        self.directory = directory
        return true
    }

    /// Frees the memory and closes (so deletes) the file.
    func close() {
        if let buffer {
            evbuffer_free(buffer)
            self.buffer = nil
        }
        small.removeAll(keeping: 0)
        releaseSegment()
        file?.close()
        file = nil
    }
}
