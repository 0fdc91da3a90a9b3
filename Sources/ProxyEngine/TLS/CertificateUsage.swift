/// What a leaf certificate may be used for (its extendedKeyUsage).
public struct CertificateUsage: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8

    public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// TLS server authentication (`serverAuth`).
    public static let server = CertificateUsage(rawValue: 1 << 0)
    /// TLS client authentication (`clientAuth`), for mutual TLS.
    public static let client = CertificateUsage(rawValue: 1 << 1)

    /// The extendedKeyUsage value in `openssl x509 -extfile` syntax.
    var extendedKeyUsage: String {
        var purposes: [String] = []
        if contains(.server) { purposes.append("serverAuth") }
        if contains(.client) { purposes.append("clientAuth") }
        return purposes.joined(separator: ",")
    }
}
