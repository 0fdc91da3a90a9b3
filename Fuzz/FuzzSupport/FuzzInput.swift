/// Reads structured choices from the front of a fuzzer input, in the manner of LLVM's FuzzedDataProvider.
///
/// Every read succeeds: past the end, bytes read as zero and byte runs come back short, so any input
/// (even an empty one) maps to some test case.
public struct FuzzInput {
    /// The whole input.
    public let bytes: UnsafeRawBufferPointer
    /// How many bytes have been consumed.
    public private(set) var position = 0

    /// - Parameter bytes: the fuzzer input.
    public init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    /// True when every byte has been consumed.
    public var isAtEnd: Bool { position >= bytes.count }

    /// The next byte, or 0 past the end.
    public mutating func byte() -> UInt8 {
        guard position < bytes.count else { return 0 }
        defer { position += 1 }
        return bytes[position]
    }

    /// The next `count` bytes as a little-endian integer (missing bytes read as 0).
    public mutating func integer(bytes count: Int) -> UInt64 {
        var value: UInt64 = 0
        for shift in 0..<count {
            value |= UInt64(byte()) << UInt64(8 * shift)
        }
        return value
    }

    /// Up to `count` next bytes (fewer at the end of the input).
    public mutating func bytes(upTo count: Int) -> UnsafeRawBufferPointer {
        let end = min(bytes.count, position + max(0, count))
        defer { position = end }
        return UnsafeRawBufferPointer(rebasing: bytes[min(position, end)..<end])
    }

    /// All bytes not yet consumed.
    public mutating func rest() -> UnsafeRawBufferPointer {
        bytes(upTo: bytes.count - position)
    }
}
