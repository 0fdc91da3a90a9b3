extension UpstreamSettings {
    /// Whether connections made with `other` may serve requests under these settings: the same addresses, the
    /// same server name (SNI and verification), and the very same TLS context object (or plain HTTP for both).
    /// A reload that builds a new TLS context for an upstream (its CA, client certificate or `verify` changed)
    /// therefore drains that upstream's pool; timeouts and pool sizes apply to connections as they are used and
    /// do not.
    public func keepsConnections(of other: UpstreamSettings) -> Bool {
        guard address == other.address, alternateAddresses == other.alternateAddresses, serverName == other.serverName
        else { return false }
        switch (tls, other.tls) {
        case (nil, nil):
            return true
        case (let mine?, let theirs?):
            return mine === theirs
        default:
            return false
        }
    }
}
