/// The most client connections the proxy holds open at once (`max_connections:`), like nginx's
/// `worker_connections` and HAProxy's `maxconn`. At the limit a worker stops accepting: new connections wait
/// in the kernel's listen queue until one of its connections closes.
public enum ConnectionLimit: Sendable, Hashable, CustomStringConvertible {
    /// From the open-file limit: a third of what is left after ``reservedDescriptors``, since a client
    /// connection may hold an upstream connection and a spool file too.
    case auto
    /// At most this many over all workers (1...``maximum``).
    case count(Int)

    /// The largest count a configuration may give.
    public static let maximum = 10_000_000
    /// Descriptors `auto` leaves for listeners, the admin listener, logs and the process itself.
    public static let reservedDescriptors = 64

    /// `auto` or the number.
    public var description: String {
        switch self {
        case .auto: return "auto"
        case .count(let count): return String(count)
        }
    }

    /// The limit over all workers.
    /// - Parameter descriptorLimit: the process's open-file limit (RLIMIT_NOFILE, soft), for `auto`.
    public func total(descriptorLimit: UInt64) -> Int {
        switch self {
        case .count(let count): return count
        case .auto:
            let usable = descriptorLimit > UInt64(Self.reservedDescriptors)
                ? min(descriptorLimit - UInt64(Self.reservedDescriptors), UInt64(Self.maximum) * 3) : 3
            return max(1, Int(usable / 3))
        }
    }

    /// Each worker's share: the total divided evenly, at least 1.
    public func perWorker(workers: Int, descriptorLimit: UInt64) -> Int {
        max(1, total(descriptorLimit: descriptorLimit) / max(1, workers))
    }
}
