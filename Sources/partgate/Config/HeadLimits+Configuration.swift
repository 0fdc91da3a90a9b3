import HTTP1
import Policy

extension HeadLimits {
    /// The request-head limits of a configuration's top-level `limits:` (`header_bytes`, `header_count`): what
    /// `serve` reads every head under and what `rewrite` reads a captured head under.
    /// - Parameter limits: the top-level limits.
    init(_ limits: RequestLimits) {
        self.init(maxHeadBytes: limits.headerBytes, maxFieldCount: limits.headerCount)
    }
}
