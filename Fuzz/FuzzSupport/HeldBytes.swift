/// Measures what a value holds in variable-size storage, by reflection, without knowing its fields.
///
/// Counts the bytes of every `[UInt8]` and one unit per element of any other collection, dictionary or
/// set, through stored properties, enum payloads, optionals and tuples. For the parser this is its header
/// buffers, field table and held-back state: what a streaming peer must keep per connection.
public enum HeldBytes {
    /// Struct and tuple types with no collection, enum, optional or class anywhere below them: they can
    /// never hold variable-size storage, so their subtrees are skipped (reflection is slow).
    /// Fuzz targets are single-threaded; this cache is only touched from the fuzzing thread.
    nonisolated(unsafe) private static var fixedTypes: Set<ObjectIdentifier> = []

    /// The variable-size storage reachable from `value` (see the type's documentation).
    public static func measure(_ value: Any) -> Int {
        measure(value).units
    }

    private static func measure(_ value: Any) -> (units: Int, fixed: Bool) {
        let type = ObjectIdentifier(Swift.type(of: value))
        if fixedTypes.contains(type) { return (0, true) }
        if let bytes = value as? [UInt8] { return (bytes.count, false) }
        let mirror = Mirror(reflecting: value)
        switch mirror.displayStyle {
        case .collection?, .dictionary?, .set?:
            return (mirror.children.count, false)
        case .class?:
            // Value types only: a reference would need cycle tracking; its storage is not ours to count.
            return (0, false)
        case .enum?, .optional?:
            return (mirror.children.reduce(0) { $0 + measure($1.value).units }, false)
        case .struct?, .tuple?, nil, .some:
            var units = 0
            var fixed = true
            for child in mirror.children {
                let (childUnits, childFixed) = measure(child.value)
                units += childUnits
                fixed = fixed && childFixed
            }
            if fixed { fixedTypes.insert(type) }
            return (units, fixed)
        }
    }
}
