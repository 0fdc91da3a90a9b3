import Policy
import Yams

/// Transfer rates: `max_upstream_rate`.
extension ConfigDecoder {
    /// The lowest rate accepted: the engine refills its token bucket ten times a second.
    static let minimumRate: Int64 = 1024

    /// A rate in bytes per second: a size (``ByteSize``) with an optional `/s`, e.g. `1MiB` or `512KiB/s`; at
    /// least 1 KiB per second.
    func rate(_ node: Node, _ what: String) -> Int64? {
        guard let text = string(node, what) else { return nil }
        var amount = Substring(text)
        if let slash = amount.lastIndex(of: "/") {
            let unit = amount[amount.index(after: slash)...]
            guard unit == "s" else {
                report(
                    .invalidSize, at: node,
                    "\(what): '\(text)' is not a rate: write a size per second, e.g. 1MiB or 1MiB/s")
                return nil
            }
            amount = amount[..<slash]
        }
        let bytes: Int64
        do {
            bytes = try ByteSize.parse(String(amount))
        } catch {
            report(.invalidSize, at: node, "\(what): \(error.reason)")
            return nil
        }
        guard bytes >= Self.minimumRate else {
            report(.invalidValue, at: node, "\(what) must be at least 1KiB per second, found '\(text)'")
            return nil
        }
        return bytes
    }
}
