/// How many worker threads (one event loop each) the proxy runs.
public enum WorkerCount: Sendable, Hashable, CustomStringConvertible {
    /// One per available core; the engine resolves it at start-up.
    case auto
    /// Exactly this many (1...1024).
    case count(Int)

    /// The largest count a configuration may ask for.
    public static let maximum = 1024

    /// `auto` or the number.
    public var description: String {
        switch self {
        case .auto: return "auto"
        case .count(let count): return String(count)
        }
    }

    /// The number of workers to start.
    /// - Parameter cores: the cores available to the process (what `auto` becomes; at least 1 is used).
    public func resolved(cores: Int) -> Int {
        switch self {
        case .auto: return max(1, cores)
        case .count(let count): return count
        }
    }
}
