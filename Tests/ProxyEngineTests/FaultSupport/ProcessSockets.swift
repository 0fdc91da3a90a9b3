import Foundation

/// The TCP sockets this process holds open: the `socket:[inode]` links in /proc/self/fd matched against the
/// kernel's tables in /proc/net/tcp and /proc/net/tcp6.
///
/// Tests run suites in parallel in one process, so a plain descriptor count would see other tests' sockets;
/// counting by port pair picks out exactly the ones a proxy under test holds.
enum ProcessSockets {
    /// One socket: its ports and TCP state (`0A` is LISTEN, `01` ESTABLISHED, `02` SYN_SENT, ...).
    struct Entry: CustomStringConvertible {
        var localPort: UInt16
        var remotePort: UInt16
        var state: String
        /// The socket's inode: the same socket keeps it, a new one gets another.
        var inode: String
        /// The kernel's `ADDRESS:PORT` columns as they are (hexadecimal), for failure messages.
        var local = ""
        var remote = ""
        var description: String { "\(local) -> \(remote) (:\(localPort) -> :\(remotePort)) state \(state) inode \(inode)" }
    }

    /// Every TCP socket this process has a descriptor for.
    static func open() -> [Entry] {
        let inodes = socketInodes()
        return ["/proc/net/tcp", "/proc/net/tcp6"].flatMap { table(at: $0) }.filter { inodes.contains($0.inode) }
            .map(\.entry)
    }

    /// The connections a proxy holds: accepted on `proxyPort` (its listener excluded) or made to
    /// `upstreamPort`. The test's own clients (to `proxyPort`) and servers (on `upstreamPort`) do not count.
    static func proxyConnections(proxyPort: UInt16, upstreamPort: UInt16) -> [Entry] {
        open().filter { ($0.localPort == proxyPort && $0.state != "0A") || $0.remotePort == upstreamPort }
    }

    /// Sockets bound to `port` in any state (a listener included).
    static func bound(to port: UInt16) -> [Entry] {
        open().filter { $0.localPort == port }
    }

    /// The number of descriptors this process has open.
    static func descriptorCount() -> Int {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []).count
    }

    private static func socketInodes() -> Set<String> {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        var inodes = Set<String>()
        for name in names {
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + name),
                target.hasPrefix("socket:["), target.hasSuffix("]")
            else { continue }
            inodes.insert(String(target.dropFirst("socket:[".count).dropLast()))
        }
        return inodes
    }

    /// Rows of a /proc/net/tcp-style table: `sl local rem st tx:rx tr:when retr uid timeout inode ...`.
    private static func table(at path: String) -> [(inode: String, entry: Entry)] {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").dropFirst().compactMap { line in
            let columns = line.split(separator: " ", omittingEmptySubsequences: true)
            guard columns.count > 9, let local = port(columns[1]), let remote = port(columns[2]) else { return nil }
            let entry = Entry(
                localPort: local, remotePort: remote, state: String(columns[3]), inode: String(columns[9]),
                local: String(columns[1]), remote: String(columns[2]))
            return (String(columns[9]), entry)
        }
    }

    /// The port of `ADDRESS:PORT` (both hexadecimal).
    private static func port(_ column: Substring) -> UInt16? {
        column.split(separator: ":").last.flatMap { UInt16($0, radix: 16) }
    }
}
