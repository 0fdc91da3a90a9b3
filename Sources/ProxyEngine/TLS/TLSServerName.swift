import Glibc

/// The name a TLS client expects its server to prove: a DNS name (sent in SNI, checked with `SSL_set1_host`) or an
/// IP literal (never sent in SNI, RFC 6066 §3; checked against the certificate's IP SANs).
enum TLSServerName: Hashable, Sendable {
    /// A DNS name: lower-cased, without a trailing dot.
    case dns(String)
    /// An IPv4 or IPv6 literal in canonical text form (brackets removed).
    case ip(String)

    /// Parses a configured or URL host name.
    ///
    /// - Throws: `.serverName` when `text` is empty, too long, or holds characters no host name has (a port,
    ///   a path, spaces, control characters).
    init(_ text: String) throws(TLSError) {
        var host = Substring(text)
        if host.hasPrefix("["), host.hasSuffix("]") { host = host.dropFirst().dropLast() }
        if let canonical = Self.canonicalIP(String(host)) {
            self = .ip(canonical)
            return
        }
        if host.hasSuffix(".") { host = host.dropLast() }
        guard Self.isDNSName(host, allowWildcard: false) else {
            throw TLSError(.serverName, "invalid server name \"\(text)\": expected a DNS name or an IP address")
        }
        self = .dns(host.lowercased())
    }

    /// The key under which sessions for this name are cached.
    var cacheKey: String {
        switch self {
        case .dns(let name): return name
        case .ip(let address): return address
        }
    }

    /// The canonical text of an IPv4/IPv6 literal (`inet_pton` then `inet_ntop`), or nil if `text` is not one.
    static func canonicalIP(_ text: String) -> String? {
        for family in [AF_INET, AF_INET6] {
            var address = in6_addr()  // large enough for either family
            guard inet_pton(family, text, &address) == 1 else { continue }
            var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
            guard inet_ntop(family, &address, &buffer, socklen_t(buffer.count)) != nil else { return nil }
            return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        return nil
    }

    /// Whether `name` is a plausible DNS name: 1–253 characters, dot-separated labels of 1–63 letters, digits,
    /// `-` or `_`; with `allowWildcard`, the first label may be `*`.
    static func isDNSName(_ name: Substring, allowWildcard: Bool) -> Bool {
        guard !name.isEmpty, name.utf8.count <= 253 else { return false }
        for (index, label) in name.split(separator: ".", omittingEmptySubsequences: false).enumerated() {
            guard !label.isEmpty, label.utf8.count <= 63 else { return false }
            if allowWildcard, index == 0, label == "*" { continue }
            for byte in label.utf8 {
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
                    continue
                default:
                    return false
                }
            }
        }
        return true
    }
}
