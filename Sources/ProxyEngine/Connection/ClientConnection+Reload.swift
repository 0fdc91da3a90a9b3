import HTTP1

/// Reload: a connection takes the worker's current configuration between exchanges, never during one, so a
/// request in flight finishes under the configuration it started with.
extension ClientConnection {
    /// Takes the worker's current settings (after a reload, the new snapshot). Called when a request head
    /// completes (before it is routed) and when an exchange ends (before the next head is read, so that its
    /// head limits are the current ones too).
    func adoptCurrentSettings() {
        let current = worker.snapshot
        guard current.settings.generation != settings.generation else { return }
        snapshot = current
        if heads.isIdle, heads.limits != settings.headLimits {
            heads = RequestHeadParser(limits: settings.headLimits)
        }
    }
}
