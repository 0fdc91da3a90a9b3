import Foundation

/// Deterministic test bytes: the byte at offset `o` is `o % 251`. The period is prime, so a chunk written
/// at the wrong place, twice, or not at all changes the bytes at every later offset; and the sequence never
/// holds CR LF, so it cannot contain a delimiter.
enum FormDataPattern {
    static let period = 251

    /// One period followed by enough bytes that any `count` ≤ 1 MiB can be sliced from any phase.
    private static let table: [UInt8] = (0..<(period + (1 << 20))).map { UInt8($0 % period) }

    /// `count` pattern bytes starting at `offset` (count ≤ 1 MiB).
    static func bytes(at offset: Int64, count: Int) -> [UInt8] {
        precondition(count <= 1 << 20)
        let start = Int(offset % Int64(period))
        return Array(table[start..<(start + count)])
    }

    /// True if `chunk` equals the pattern at `offset` (chunk ≤ 1 MiB).
    static func matches(_ chunk: UnsafeRawBufferPointer, at offset: Int64) -> Bool {
        guard chunk.count <= 1 << 20 else { return false }
        guard let base = chunk.baseAddress else { return true }
        let start = Int(offset % Int64(period))
        return table.withUnsafeBytes { memcmp(base, $0.baseAddress! + start, chunk.count) == 0 }
    }

    /// Copies pattern bytes for `offset` into `buffer` (buffer ≤ 1 MiB).
    static func fill(_ buffer: UnsafeMutableRawBufferPointer, at offset: Int64) {
        precondition(buffer.count <= 1 << 20)
        guard let base = buffer.baseAddress else { return }
        let start = Int(offset % Int64(period))
        table.withUnsafeBytes { _ = memcpy(base, $0.baseAddress! + start, buffer.count) }
    }
}
