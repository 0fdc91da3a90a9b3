/// Measures what a value holds in variable-size storage, by reflection, without knowing its fields.
///
/// Counts the bytes of every `[UInt8]` and one unit per element of any other collection, dictionary or
/// set, through stored properties, enum payloads, optionals and tuples. For the parser this is its header
/// buffers, field table and held-back state: what a streaming peer must keep per connection.
public enum HeldBytes {
    /// The variable-size storage reachable from `value` (see the type's documentation).
    public static func measure(_ value: Any) -> Int {
        if let bytes = value as? [UInt8] { return bytes.count }
        let mirror = Mirror(reflecting: value)
        switch mirror.displayStyle {
        case .collection?, .dictionary?, .set?:
            return mirror.children.count
        case .class?:
            // Value types only: a reference would need cycle tracking; its storage is not ours to count.
            return 0
        default:
            return mirror.children.reduce(0) { $0 + measure($1.value) }
        }
    }
}
