/// Where an upstream lives: `https://host[:port]` or `http://host[:port]`, nothing else.
///
/// The host is a DNS name, an IPv4 literal or a bracketed IPv6 literal. The port defaults to 443 for
/// `https` and 80 for `http`. A path other than `/`, a query, a fragment or user information is refused:
/// partgate forwards the client's request target unchanged, so a base path would be silently ignored.
public struct UpstreamURL: Sendable, Hashable, CustomStringConvertible {
    /// The URL scheme.
    public enum Scheme: String, Sendable, Hashable, CaseIterable {
        /// Plain HTTP/1.1 over TCP.
        case http
        /// HTTP/1.1 over TLS.
        case https

        /// 80 or 443.
        public var defaultPort: UInt16 { self == .https ? 443 : 80 }
    }

    /// `http` or `https`.
    public var scheme: Scheme
    /// The host name (lower case) or IP literal (IPv6 without brackets).
    public var host: String
    /// The TCP port.
    public var port: UInt16

    /// Whether the upstream is reached over TLS.
    public var usesTLS: Bool { scheme == .https }

    /// Whether ``host`` is an IP literal rather than a DNS name.
    public var hostIsIPLiteral: Bool { IPAddressLiteral(host) != nil }

    /// - Parameters:
    ///   - scheme: `http` or `https`.
    ///   - host: a DNS name or an IP literal (IPv6 without brackets).
    ///   - port: the TCP port (default: the scheme's).
    public init(scheme: Scheme, host: String, port: UInt16? = nil) {
        self.scheme = scheme
        self.host = host
        self.port = port ?? scheme.defaultPort
    }

    /// Parses an upstream URL.
    /// - Parameter text: e.g. `https://uploads.internal:8443`.
    /// - Throws: ``ConfigurationValueError`` (`invalid_url`) naming what is wrong.
    public init(parsing text: String) throws(ConfigurationValueError) {
        guard let colon = text.firstIndex(of: ":"), text[colon...].hasPrefix("://") else {
            throw ConfigurationValueError(
                .invalidURL,
                "'\(text)' is not a URL: expected https://host[:port] "
                    + "or http://host[:port]")
        }
        guard let scheme = Scheme(rawValue: text[..<colon].lowercased()) else {
            throw ConfigurationValueError(.invalidURL, "'\(text)': scheme must be https or http")
        }
        var authority = text[text.index(colon, offsetBy: 3)...]
        if let slash = authority.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) {
            guard authority[slash...] == "/" else {
                throw ConfigurationValueError(
                    .invalidURL,
                    "'\(text)': an upstream URL has no path, query or "
                        + "fragment (partgate forwards the request target unchanged)")
            }
            authority = authority[..<slash]
        }
        if authority.contains("@") {
            throw ConfigurationValueError(.invalidURL, "'\(text)': user information is not allowed in an upstream URL")
        }
        var hostText = authority
        var portText: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else {
                throw ConfigurationValueError(.invalidURL, "'\(text)': missing ']' after the IPv6 address")
            }
            hostText = authority[authority.index(after: authority.startIndex)..<close]
            let rest = authority[authority.index(after: close)...]
            if !rest.isEmpty {
                guard rest.first == ":" else {
                    throw ConfigurationValueError(.invalidURL, "'\(text)': expected ':port' after ']'")
                }
                portText = rest.dropFirst()
            }
            guard let ip = IPAddressLiteral(String(hostText)), ip.family == .ipv6 else {
                throw ConfigurationValueError(.invalidURL, "'\(text)': '\(hostText)' is not an IPv6 address")
            }
        } else {
            if let colon = authority.lastIndex(of: ":") {
                hostText = authority[..<colon]
                portText = authority[authority.index(after: colon)...]
            }
            guard IPAddressLiteral.parseIPv4(hostText) != nil || HostName.isValid(String(hostText)) else {
                throw ConfigurationValueError(
                    .invalidURL,
                    "'\(text)': '\(hostText)' is not a valid host name "
                        + "or IP address")
            }
        }
        let port: UInt16?
        do {
            port = try portText.map { (text) throws(ConfigurationValueError) in
                try ListenAddress.parsePort(text, in: String(authority), allowZero: false)
            }
        } catch {
            throw ConfigurationValueError(.invalidURL, "'\(text)': port '\(portText ?? "")' is not a number in 1-65535")
        }
        var host = String(hostText).lowercased()
        if host.hasSuffix(".") { host.removeLast() }
        self.init(scheme: scheme, host: host, port: port)
    }

    /// `https://host:port` (IPv6 hosts in brackets).
    public var description: String {
        let shown = host.contains(":") ? "[\(host)]" : host
        return "\(scheme.rawValue)://\(shown):\(port)"
    }
}
