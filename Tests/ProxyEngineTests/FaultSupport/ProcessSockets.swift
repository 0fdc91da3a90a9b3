import CEventTLS  // IPPROTO_TCP and TCP_INFO, from <netinet/in.h> and <netinet/tcp.h>
import Foundation

/// The TCP sockets this process holds open, read from each descriptor itself: `/proc/self/fd` names the socket
/// descriptors, and `getsockname`, `getpeername` and `TCP_INFO` on each give its ports and state.
///
/// Tests run suites in parallel in one process, so a plain descriptor count would see other tests' sockets;
/// counting by port pair picks out exactly the ones a proxy under test holds.
///
/// Not `/proc/net/tcp` alone: the kernel prints that table a page at a time and resumes each `read` by position,
/// so while other tests open and close sockets a row can be skipped. A socket missed in a case's baseline then
/// showed up afterwards as "left behind" (a full-backlog listener's own filler connection, once in CI). The table
/// is read only for a socket still connecting, which `getpeername` does not answer for.
enum ProcessSockets {
    /// One socket: its ports and TCP state (`0A` is LISTEN, `01` ESTABLISHED, `02` SYN_SENT, ...).
    struct Entry: CustomStringConvertible {
        var localPort: UInt16
        var remotePort: UInt16
        var state: String
        /// The socket's inode: the same socket keeps it, a new one gets another.
        var inode: String
        /// The addresses as `HOST:PORT`, for failure messages.
        var local = ""
        var remote = ""
        var description: String { "\(local) -> \(remote) state \(state) inode \(inode)" }
    }

    /// Every TCP socket this process has a descriptor for.
    static func open() -> [Entry] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        var peers = ConnectingPeers()
        return names.compactMap { name in
            guard let descriptor = Int32(name),
                let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + name),
                target.hasPrefix("socket:["), target.hasSuffix("]")
            else { return nil }
            return entry(descriptor, inode: String(target.dropFirst("socket:[".count).dropLast()), peers: &peers)
        }
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

    /// `descriptor` as an entry if it is a TCP socket and still the socket `inode` (another thread may close the
    /// descriptor, and a new file take its number, while this runs); nil otherwise.
    private static func entry(_ descriptor: Int32, inode: String, peers: inout ConnectingPeers) -> Entry? {
        guard let state = tcpState(descriptor), let local = address(descriptor, peer: false) else { return nil }
        let remote =
            address(descriptor, peer: true)
            ?? (state == synSent ? peers.remote(of: inode) : nil) ?? (host: "*", port: 0)
        var status = stat()
        guard fstat(descriptor, &status) == 0, String(status.st_ino) == inode else { return nil }
        return Entry(
            localPort: local.port, remotePort: remote.port, state: String(format: "%02X", state), inode: inode,
            local: "\(local.host):\(local.port)", remote: "\(remote.host):\(remote.port)")
    }

    /// A NUL-terminated C string as text.
    private static func text(_ characters: [CChar]) -> String {
        String(decoding: characters.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `TCP_SYN_SENT`: a connect under way.
    private static let synSent: UInt8 = 2

    /// The kernel's TCP state (`tcpi_state`, the first byte of `struct tcp_info`); nil for other sockets.
    private static func tcpState(_ descriptor: Int32) -> UInt8? {
        var info = [UInt8](repeating: 0, count: 256)
        var length = socklen_t(info.count)
        let result = info.withUnsafeMutableBytes {
            getsockopt(descriptor, Int32(IPPROTO_TCP), TCP_INFO, $0.baseAddress, &length)
        }
        return result == 0 && length > 0 ? info[0] : nil
    }

    /// The socket's own address (or its peer's), IPv4 or IPv6; nil when it has none.
    private static func address(_ descriptor: Int32, peer: Bool) -> (host: String, port: UInt16)? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let named = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                peer ? getpeername(descriptor, $0, &length) : getsockname(descriptor, $0, &length)
            }
        }
        guard named == 0 else { return nil }
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        switch Int32(storage.ss_family) {
        case AF_INET:
            return withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { address in
                    var bytes = address.pointee.sin_addr
                    inet_ntop(AF_INET, &bytes, &text, socklen_t(text.count))
                    return (Self.text(text), UInt16(bigEndian: address.pointee.sin_port))
                }
            }
        case AF_INET6:
            return withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { address in
                    var bytes = address.pointee.sin6_addr
                    inet_ntop(AF_INET6, &bytes, &text, socklen_t(text.count))
                    return ("[" + Self.text(text) + "]", UInt16(bigEndian: address.pointee.sin6_port))
                }
            }
        default:
            return nil
        }
    }

    /// The peers of connecting sockets, from the kernel's tables (read when first needed, and once more for an
    /// inode the first reading skipped).
    private struct ConnectingPeers {
        private var rows: [String: (host: String, port: UInt16)]?
        private var reread = false

        mutating func remote(of inode: String) -> (host: String, port: UInt16)? {
            if rows == nil { rows = Self.read() }
            if rows?[inode] == nil, !reread {
                reread = true
                rows = Self.read()
            }
            return rows?[inode]
        }

        /// Rows of /proc/net/tcp{,6}: `sl local rem st tx:rx tr:when retr uid timeout inode ...`, addresses as
        /// hexadecimal `ADDRESS:PORT` (kept as they are: only the port is compared).
        private static func read() -> [String: (host: String, port: UInt16)] {
            var rows: [String: (host: String, port: UInt16)] = [:]
            for path in ["/proc/net/tcp", "/proc/net/tcp6"] {
                guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { continue }
                for line in text.split(separator: "\n").dropFirst() {
                    let columns = line.split(separator: " ", omittingEmptySubsequences: true)
                    guard columns.count > 9 else { continue }
                    let parts = columns[2].split(separator: ":")
                    guard parts.count == 2, let port = UInt16(parts[1], radix: 16) else { continue }
                    rows[String(columns[9])] = (host: String(parts[0]), port: port)
                }
            }
            return rows
        }
    }
}
