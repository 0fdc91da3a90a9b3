/// A small set of field names, matched against received names ignoring ASCII case, as the head writers take
/// it for the fields they leave out.
///
/// Built once (the engine keeps its sets in static lets): the names' bytes lie lowercased in one array, with a
/// bit per name length, so most fields are passed over on their length alone and the rest are compared byte by
/// byte with no `String` in sight. (A `Set<String>` was walked whole for every head to learn its lengths, then
/// again for each field of a matching length: about 3 k instructions per proxied request.)
public struct FieldNameSet: Sendable, Hashable, ExpressibleByArrayLiteral {
    /// The names, lowercased, back to back.
    private var bytes: [UInt8] = []
    /// Where each name lies in ``bytes``.
    private var spans: [Range<Int>] = []
    /// Bit n set: some name is n bytes long (63: 63 or more).
    private var lengths: UInt64 = 0

    /// A set of `names` (any case; duplicates are kept once).
    public init(_ names: some Sequence<String>) {
        formUnion(names)
    }

    /// - Parameter elements: the names.
    public init(arrayLiteral elements: String...) {
        self.init(elements)
    }

    /// The names, lowercased, in the order first added.
    public var names: [String] {
        spans.map { String(decoding: bytes[$0], as: UTF8.self) }
    }

    /// How many names the set holds.
    public var count: Int { spans.count }

    /// Adds `names`.
    public mutating func formUnion(_ names: some Sequence<String>) {
        for name in names {
            let lowered = name.utf8.map(ByteClass.lowercased)
            guard !lowered.withUnsafeBufferPointer({ contains($0) }) else { continue }
            spans.append(bytes.count..<(bytes.count + lowered.count))
            bytes.append(contentsOf: lowered)
            lengths |= Self.bit(lowered.count)
        }
    }

    /// This set plus `names`.
    public func union(_ names: some Sequence<String>) -> FieldNameSet {
        var union = self
        union.formUnion(names)
        return union
    }

    /// Whether `name` is in the set, ignoring ASCII case.
    public func contains(_ name: String) -> Bool {
        var name = name
        return name.withUTF8 { contains($0) }
    }

    /// Whether the name spelled by `name` is in the set, ignoring ASCII case.
    public func contains(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
        guard lengths & Self.bit(name.count) != 0 else { return false }
        return bytes.withUnsafeBufferPointer { stored in
            spans.contains { span in
                guard span.count == name.count else { return false }
                var index = span.lowerBound
                for byte in name {
                    if ByteClass.lowercased(byte) != stored[index] { return false }
                    index += 1
                }
                return true
            }
        }
    }

    @inline(__always)
    private static func bit(_ length: Int) -> UInt64 {
        1 << UInt64(min(63, length))
    }

    /// Two sets are equal when they hold the same names.
    public static func == (lhs: FieldNameSet, rhs: FieldNameSet) -> Bool {
        Set(lhs.names) == Set(rhs.names)
    }

    /// Hashes the names, in no order.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(Set(names))
    }
}
