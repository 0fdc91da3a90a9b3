/// The `<hex> CRLF` line that starts a chunk, held inline (no heap allocation).
public struct ChunkSizeLine: Hashable, Sendable {
    /// Up to 16 hex digits plus CRLF.
    private var storage: (UInt64, UInt64, UInt64) = (0, 0, 0)
    /// Number of bytes used in `storage`.
    public private(set) var count: Int = 0

    /// Creates the size line for a chunk of `size` bytes, in lowercase hex without leading zeros.
    /// - Parameter size: The chunk's data length; must be positive (a zero size is the last chunk,
    ///   see ``ChunkedEncoder/lastChunk``).
    public init(size: Int) {
        precondition(size > 0, "a zero-size chunk ends the body; use ChunkedEncoder.lastChunk")
        let value = UInt64(size)
        let digitCount = (64 - value.leadingZeroBitCount + 3) / 4
        withUnsafeMutableBytes(of: &storage) { raw in
            var remaining = value
            var index = digitCount - 1
            while index >= 0 {
                let nibble = UInt8(truncatingIfNeeded: remaining & 0xF)
                raw[index] = nibble < 10 ? 0x30 + nibble : 0x61 + nibble - 10
                remaining >>= 4
                index -= 1
            }
            raw[digitCount] = ByteClass.cr
            raw[digitCount + 1] = ByteClass.lf
        }
        count = digitCount + 2
    }

    /// Calls `body` with the line's bytes.
    /// - Parameter body: A closure that reads the bytes; they are valid only during the call.
    public func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try Swift.withUnsafeBytes(of: storage) { raw in
            try body(UnsafeRawBufferPointer(rebasing: raw[0..<count]))
        }
    }

    /// The line as an array.
    public var bytes: [UInt8] { withUnsafeBytes { Array($0) } }

    /// Two lines are equal when their bytes are.
    public static func == (lhs: ChunkSizeLine, rhs: ChunkSizeLine) -> Bool { lhs.bytes == rhs.bytes }

    /// Hashes the bytes.
    /// - Parameter hasher: The hasher.
    public func hash(into hasher: inout Hasher) {
        withUnsafeBytes { hasher.combine(bytes: $0) }
    }
}
