import CByteCopy
import CEventTLS

/// Appends to an upstream's output buffer in large contiguous chains.
///
/// A TLS upstream's socket (``UpstreamSocket``) calls `SSL_write` once per buffer chain, so moving many small input chains
/// (a socket read often yields ~4 KiB) plus the chunk framing between them would make one small TLS record
/// and one `write` per piece. Copying into chains of at least 64 KiB instead costs one `memcpy` per byte and
/// gives full 16 KiB records. Plain upstreams take zero-copy chain moves instead (`writev` sends them as is).
struct CoalescingOutput {
    /// Pieces this large are copied with ``partgate_copy_bytes`` (see CByteCopy.h); smaller ones with `evbuffer_add`
    /// (one call instead of a reserve and a commit: a small request's head and part heads).
    static let bulkCopy = 2048
    /// The smallest chain the output allocates.
    static let chainSize = 64 * 1024
    /// Free bytes left in the output's last chain, as far as this writer knows.
    private var reserved = 0

    /// Appends `bytes`, in chains of about `chainLimit` bytes at most when it is below ``chainSize``.
    ///
    /// Under a rate limit (`max_upstream_rate`) chains no larger than a tick's worth keep each `SSL_write` (one
    /// record or a few) within the bucket's tick. (libevent's OpenSSL bufferevent, until stop 49, wrote every
    /// chain that started within the bucket's amount in full: 64 KiB chains let it run ahead of the rate.)
    mutating func add(_ buffer: OpaquePointer, _ bytes: UnsafeRawBufferPointer, chainLimit: Int = .max) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        if EvBuffer.length(buffer) == 0 { reserved = 0 }  // a drained buffer frees its chains
        let chain = max(1, min(Self.chainSize, chainLimit))
        var offset = 0
        while offset < bytes.count {
            let count = chain < Self.chainSize ? min(bytes.count - offset, chain) : bytes.count - offset
            if count > reserved {
                let size = max(count, chain)
                _ = evbuffer_expand(buffer, size)
                reserved = size
            }
            let source = base + offset
            if count < Self.bulkCopy {
                _ = evbuffer_add(buffer, source, count)
            } else {
                _ = EvBuffer.append(buffer, count: count) { partgate_copy_bytes($0.baseAddress!, source, count) }
            }
            reserved -= count
            offset += count
        }
    }

    /// Bytes were added to the buffer by other means: its last chain's free space is unknown.
    mutating func forget() {
        reserved = 0
    }

    mutating func add(_ buffer: OpaquePointer, _ bytes: [UInt8]) {
        bytes.withUnsafeBytes { add(buffer, $0) }
    }
}
