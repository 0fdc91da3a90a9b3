import Sniff

/// What one part turned out to be, once its last byte went past.
public struct PartSummary: Sendable, Hashable {
    /// Zero-based index in the body.
    public var index: Int
    /// The field name.
    public var name: String
    /// The filename, if any.
    public var filename: String?
    /// The Content-Type the client declared (canonical form), if any.
    public var declaredType: String?
    /// The type sniffed from the first ≤ 1445 bytes.
    public var sniffed: SniffResult
    /// Data bytes.
    public var size: Int64
    /// Digest of the data bytes.
    public var digest: [UInt8]
}
