/// Where encoders write bytes. Arrays, counters and (in the engine) evbuffers conform.
public protocol ByteSink {
    /// Appends `bytes`.
    mutating func write(_ bytes: UnsafeRawBufferPointer)
}

extension ByteSink {
    /// Appends the bytes of a byte array.
    @inlinable
    public mutating func write(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { write($0) }
    }

    /// Appends the UTF-8 bytes of `string`.
    @inlinable
    public mutating func write(_ string: String) {
        var string = string
        string.withUTF8 { write(UnsafeRawBufferPointer($0)) }
    }
}

extension Array: ByteSink where Element == UInt8 {
    /// Appends `bytes` to the array.
    @inlinable
    public mutating func write(_ bytes: UnsafeRawBufferPointer) {
        append(contentsOf: bytes)
    }
}

/// A sink that only counts: computes exact encoded lengths without building the bytes.
public struct ByteCounter: ByteSink, Sendable {
    /// Bytes written so far.
    public private(set) var count: Int64 = 0

    /// A counter at zero.
    public init() {}

    /// Adds `bytes.count`.
    public mutating func write(_ bytes: UnsafeRawBufferPointer) {
        count += Int64(bytes.count)
    }
}
