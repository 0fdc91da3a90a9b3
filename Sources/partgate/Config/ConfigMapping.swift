import Yams

/// A YAML mapping whose keys were checked against the keys its section allows.
///
/// Built by ``ConfigDecoder/mapping(_:_:keys:)``, which reports unknown keys. An explicit null value
/// (`key:`, `key: ~`, `key: null`) reads as absent, so the key takes its default.
struct ConfigMapping {
    /// The mapping node itself (its mark is where "missing key" problems point).
    let node: Node
    /// How messages name this section, e.g. `route 'avatars'` or `'limits'`.
    let context: String
    /// The known entries in file order.
    let entries: [(key: String, keyNode: Node, value: Node)]

    /// The value of `key`, or nil when the key is absent or null.
    func value(_ key: String) -> Node? {
        guard let entry = entries.first(where: { $0.key == key }), !ConfigDecoder.isNull(entry.value) else {
            return nil
        }
        return entry.value
    }

    /// The key node of `key` (for problems about the key itself), or nil when absent or null.
    func keyNode(_ key: String) -> Node? {
        guard value(key) != nil else { return nil }
        return entries.first { $0.key == key }?.keyNode
    }

    /// Whether `key` is present with a non-null value.
    func contains(_ key: String) -> Bool { value(key) != nil }
}
