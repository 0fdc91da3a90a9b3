/// One configuration generation behind one reference. A worker's client connections share their worker's instead of
/// each holding a copy of ``EngineSettings`` (240 bytes, with a reference count on each of its arrays and
/// dictionaries): that copy was an eighth of an idle keep-alive connection's heap (docs/memory.md).
final class SettingsSnapshot {
    let settings: EngineSettings

    init(_ settings: EngineSettings) {
        self.settings = settings
    }
}
