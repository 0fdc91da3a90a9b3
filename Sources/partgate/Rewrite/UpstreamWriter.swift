import Foundation
import HTTP1

/// Writes what would go upstream to standard output: the head, then the body in the batches the engine
/// writes, each framed as one chunk when the body goes chunked. Buffered (256 KiB), so memory stays flat.
struct UpstreamWriter {
    private var buffer: [UInt8] = []
    private let capacity = 256 * 1024
    private let descriptor: Int32
    /// Whether the body goes with chunked framing.
    private var chunked = false
    /// Body bytes written (without chunk framing).
    private(set) var bodyBytes: Int64 = 0
    /// The first write error, if any (later writes are dropped).
    private(set) var failure: String?

    /// - Parameter descriptor: where to write (standard output).
    init(descriptor: Int32 = 1) {
        self.descriptor = descriptor
        buffer.reserveCapacity(capacity)
    }

    /// Writes the upstream head.
    /// - Parameters:
    ///   - head: the head in wire form (``UpstreamRequestHead``).
    ///   - chunked: whether the body that follows is framed as chunks.
    mutating func begin(head: [UInt8], chunked: Bool) {
        self.chunked = chunked
        append(head)
    }

    /// Writes one batch of `count` body bytes (one chunk when chunked) that `body` appends through `write`.
    mutating func batch(_ count: Int, _ body: (_ write: (UnsafeRawBufferPointer) -> Void) -> Void) {
        guard count > 0 else { return }
        if chunked { ChunkedEncoder.appendSizeLine(for: count, to: &buffer) }
        body { bytes in append(bytes) }
        if chunked { append(ChunkedEncoder.dataTerminator) }
        bodyBytes += Int64(count)
    }

    /// Ends the body (the last chunk when chunked) and flushes.
    mutating func end() {
        if chunked { append(ChunkedEncoder.lastChunk) }
        flush()
    }

    /// Writes out what is buffered.
    mutating func flush() {
        defer { buffer.removeAll(keepingCapacity: true) }
        guard failure == nil else { return }
        buffer.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = Foundation.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else {
                    failure = String(cString: strerror(errno))
                    return
                }
                offset += written
            }
        }
    }

    private mutating func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { append($0) }
    }

    private mutating func append(_ bytes: UnsafeRawBufferPointer) {
        if buffer.count + bytes.count > capacity { flush() }
        if bytes.count >= capacity {
            buffer.append(contentsOf: bytes)
            flush()
        } else {
            buffer.append(contentsOf: bytes)
        }
    }
}
