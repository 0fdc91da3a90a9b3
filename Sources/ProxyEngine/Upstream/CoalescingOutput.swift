import CEventTLS

/// Appends to an upstream's output buffer in large contiguous chains.
///
/// libevent's OpenSSL bufferevent calls `SSL_write` once per buffer chain, so moving many small input chains
/// (a socket read often yields ~4 KiB) plus the chunk framing between them would make one small TLS record
/// and one `write` per piece. Copying into chains of at least 64 KiB instead costs one `memcpy` per byte and
/// gives full 16 KiB records. Plain upstreams take zero-copy chain moves instead (`writev` sends them as is).
struct CoalescingOutput {
    /// The smallest chain the output allocates.
    static let chainSize = 64 * 1024
    /// Free bytes left in the output's last chain, as far as this writer knows.
    private var reserved = 0

    mutating func add(_ buffer: OpaquePointer, _ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        if EvBuffer.length(buffer) == 0 { reserved = 0 }  // a drained buffer frees its chains
        if bytes.count > reserved {
            let size = max(bytes.count, Self.chainSize)
            _ = evbuffer_expand(buffer, size)
            reserved = size
        }
        _ = evbuffer_add(buffer, base, bytes.count)
        reserved -= bytes.count
    }

    mutating func add(_ buffer: OpaquePointer, _ bytes: [UInt8]) {
        bytes.withUnsafeBytes { add(buffer, $0) }
    }
}
