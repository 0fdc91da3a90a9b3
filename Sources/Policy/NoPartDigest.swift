/// A ``PartDigest`` that computes nothing (`finalize()` returns no bytes), for stages whose audit records need
/// no digest.
public struct NoPartDigest: PartDigest {
    /// A digest that ignores its input.
    public init() {}
    /// Ignores the bytes.
    public mutating func update(_ bytes: UnsafeRawBufferPointer) {}
    /// Returns no bytes.
    public mutating func finalize() -> [UInt8] { [] }
}
