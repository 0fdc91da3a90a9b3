/// A local address to listen on: an IP literal and a port.
///
/// Written `a.b.c.d:port` or `[v6]:port` (`0.0.0.0:8443`, `[::1]:8080`). Host names are refused: a listener
/// binds to addresses, and a name that resolves to several would bind to a surprise. Port 0 asks the kernel
/// for a free port (the engine logs the one it got).
public struct ListenAddress: Sendable, Hashable, CustomStringConvertible {
    /// The IP address to bind.
    public var ip: IPAddressLiteral
    /// The TCP port; 0 picks a free one.
    public var port: UInt16

    /// The host part as a bind call wants it: `127.0.0.1` or `::1` (no brackets).
    public var host: String { ip.text }

    /// - Parameters:
    ///   - ip: the address to bind.
    ///   - port: the TCP port; 0 picks a free one.
    public init(ip: IPAddressLiteral, port: UInt16) {
        self.ip = ip
        self.port = port
    }

    /// Parses `host:port` with an IPv4 host or `[host]:port` with an IPv6 host.
    /// - Parameter text: e.g. `127.0.0.1:8080`, `[::]:443`.
    /// - Throws: ``ConfigurationValueError`` (`invalid_address`) naming what is wrong.
    public init(parsing text: String) throws(ConfigurationValueError) {
        let hostText: Substring
        let portText: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else {
                throw ConfigurationValueError(.invalidAddress, "'\(text)': missing ']' after the IPv6 address")
            }
            hostText = text[text.index(after: text.startIndex)..<close]
            let rest = text[text.index(after: close)...]
            guard rest.first == ":" else {
                throw ConfigurationValueError(.invalidAddress, "'\(text)': expected ':port' after ']'")
            }
            portText = rest.dropFirst()
        } else {
            guard let colon = text.lastIndex(of: ":") else {
                throw ConfigurationValueError(
                    .invalidAddress,
                    "'\(text)' has no port: expected host:port, "
                        + "e.g. 127.0.0.1:8080")
            }
            hostText = text[..<colon]
            portText = text[text.index(after: colon)...]
            if hostText.contains(":") {
                throw ConfigurationValueError(
                    .invalidAddress,
                    "'\(text)': write an IPv6 address in brackets, "
                        + "e.g. [::1]:8080")
            }
        }
        guard let ip = IPAddressLiteral(String(hostText)) else {
            throw ConfigurationValueError(
                .invalidAddress,
                "'\(text)': '\(hostText)' is not an IP address "
                    + "(listeners bind to IPv4 a.b.c.d or [IPv6] literals, not host names)")
        }
        if text.hasPrefix("["), ip.family == .ipv4 {
            throw ConfigurationValueError(.invalidAddress, "'\(text)': brackets are for IPv6 addresses only")
        }
        self.ip = ip
        self.port = try Self.parsePort(portText, in: text, allowZero: true)
    }

    /// Parses a decimal port: 1...65535, or 0...65535 when `allowZero`.
    static func parsePort(_ text: Substring, in whole: String, allowZero: Bool) throws(ConfigurationValueError)
        -> UInt16
    {
        guard !text.isEmpty, text.count <= 5, text.allSatisfy({ ("0"..."9").contains($0) }),
            let port = UInt16(text), allowZero || port != 0, text.count == 1 || text.first != "0"
        else {
            let range = allowZero ? "0-65535" : "1-65535"
            throw ConfigurationValueError(.invalidAddress, "'\(whole)': port '\(text)' is not a number in \(range)")
        }
        return port
    }

    /// `127.0.0.1:8080` or `[::1]:8080`.
    public var description: String {
        ip.family == .ipv6 ? "[\(ip.text)]:\(port)" : "\(ip.text):\(port)"
    }

    /// Whether binding both addresses would conflict: the same port, and the same IP or the unspecified
    /// address of the same family on either side. Port 0 never conflicts (each bind gets its own port).
    /// - Parameter other: another listen address.
    public func conflicts(with other: ListenAddress) -> Bool {
        guard port == other.port, port != 0, ip.family == other.ip.family else { return false }
        return ip.bytes == other.ip.bytes || ip.isUnspecified || other.ip.isUnspecified
    }
}
