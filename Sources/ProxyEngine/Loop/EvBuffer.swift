import CEventTLS

/// Small helpers over `struct evbuffer *`.
enum EvBuffer {
    /// Appends bytes (copied).
    @inline(__always)
    static func add(_ buffer: OpaquePointer, _ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        _ = evbuffer_add(buffer, base, bytes.count)
    }

    /// Appends bytes (copied).
    static func add(_ buffer: OpaquePointer, _ bytes: [UInt8]) {
        bytes.withUnsafeBytes { add(buffer, $0) }
    }

    /// Appends `count` bytes that `fill` writes into one contiguous reserved region, committed at once (one
    /// run of the buffer's callbacks). Returns false, having added nothing, when libevent cannot reserve it.
    static func append(
        _ buffer: OpaquePointer, count: Int, _ fill: (UnsafeMutableRawBufferPointer) -> Void
    ) -> Bool {
        guard count > 0 else { return true }
        var vector = iovec()
        guard evbuffer_reserve_space(buffer, count, &vector, 1) == 1, let base = vector.iov_base,
            vector.iov_len >= count
        else { return false }
        fill(UnsafeMutableRawBufferPointer(start: base, count: count))
        vector.iov_len = count
        return evbuffer_commit_space(buffer, &vector, 1) == 0
    }

    /// The bytes of the first chain, without copying (valid until the buffer is modified at that chain).
    static func firstChain(_ buffer: OpaquePointer) -> UnsafeRawBufferPointer? {
        var vector = iovec()
        let count = evbuffer_peek(buffer, -1, nil, &vector, 1)
        guard count > 0, vector.iov_len > 0, let base = vector.iov_base else { return nil }
        return UnsafeRawBufferPointer(start: base, count: vector.iov_len)
    }

    /// All buffered bytes as one contiguous region (libevent copies them into one chain if they span
    /// several; the buffer's size is bounded by the read watermark). Fewer, larger pieces mean fewer parse
    /// calls, chunks and TLS writes per GiB.
    static func contiguous(_ buffer: OpaquePointer) -> UnsafeRawBufferPointer? {
        let length = evbuffer_get_length(buffer)
        guard length > 0, let base = evbuffer_pullup(buffer, -1) else { return nil }
        return UnsafeRawBufferPointer(start: base, count: length)
    }

    @inline(__always)
    static func length(_ buffer: OpaquePointer) -> Int {
        evbuffer_get_length(buffer)
    }

    @inline(__always)
    static func drain(_ buffer: OpaquePointer, _ count: Int) {
        if count > 0 { _ = evbuffer_drain(buffer, count) }
    }

    /// Moves `count` bytes from the front of `source` to the end of `destination`: whole chains are
    /// relinked, only partial chains are copied.
    @inline(__always)
    static func move(from source: OpaquePointer, to destination: OpaquePointer, _ count: Int) {
        if count > 0 { _ = evbuffer_remove_buffer(source, destination, count) }
    }
}

