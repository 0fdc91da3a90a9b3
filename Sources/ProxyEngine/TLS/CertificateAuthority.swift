import CEventTLS

/// A throwaway certificate authority made in process: an EC P-256 key and a self-signed CA certificate that issues
/// leaf certificates for DNS names and IP addresses.
///
/// For `partgate demo` (a certificate made at start-up, verified by the proxy like any upstream) and for tests
/// (certificates made during the test run). Nothing is written to disk unless asked.
///
/// The CA certificate: X.509 v3, subject = issuer = `CN=<commonName>`, basicConstraints `critical, CA:TRUE,
/// pathlen:0` (it can sign leaves only), keyUsage `critical, keyCertSign, cRLSign`, subject and authority key
/// identifiers, a random 128-bit serial, valid from one hour ago for `validityDays`, signed with SHA-256.
public final class CertificateAuthority: Sendable {
    /// The CA certificate: what peers trust (``TLSTrustRoots/certificates(_:)``, or a `ca:` file).
    public let certificate: TLSCertificate
    /// The CA's private key, which signs leaves.
    public let privateKey: TLSPrivateKey

    /// A new CA with a fresh key.
    ///
    /// - Parameters:
    ///   - commonName: the CA's subject CN (default `partgate demo CA`).
    ///   - validityDays: how long the CA certificate is valid (default 30 days).
    /// - Throws: `.generation` with OpenSSL's reason.
    public init(commonName: String = "partgate demo CA", validityDays: Int = 30) throws(TLSError) {
        guard validityDays >= 1 else { throw TLSError(.generation, "a CA must be valid for at least one day") }
        let key = try TLSPrivateKey.generateP256()
        let template = CertificateTemplate(
            commonName: commonName,
            validityDays: validityDays,
            extensions: [
                (NID_basic_constraints, "critical,CA:TRUE,pathlen:0"),
                (NID_key_usage, "critical,keyCertSign,cRLSign"),
                (NID_subject_key_identifier, "hash"),
                (NID_authority_key_identifier, "keyid:always"),
            ]
        )
        certificate = try template.sign(subjectKey: key, issuer: nil, issuerKey: key)
        privateKey = key
    }

    /// The CA certificate as PEM text.
    public var certificatePEM: String { certificate.pem }

    /// Issues a leaf certificate with a fresh EC P-256 key.
    ///
    /// The leaf: subjectAltName with every DNS name and IP address, basicConstraints `critical, CA:FALSE`, keyUsage
    /// `critical, digitalSignature`, extendedKeyUsage per `usage`, key identifiers, a random 128-bit serial, valid
    /// from one hour ago for `validityDays`, signed by this CA with SHA-256.
    ///
    /// - Parameters:
    ///   - dnsNames: DNS names (a wildcard only as the whole first label, `*.example.test`).
    ///   - ipAddresses: IPv4 or IPv6 literals.
    ///   - usage: server and/or client authentication (default: server).
    ///   - commonName: the subject CN (default: the first DNS name, else the first IP address; `partgate leaf` if
    ///     that is longer than the 64 characters X.509 allows for a CN).
    ///   - validityDays: how long the leaf is valid (default 30 days).
    ///   - shiftDays: moves the validity period by this many days (default 0): `-31` makes a 30-day leaf that
    ///     expired yesterday, `2` one that is not valid yet (for tests of how expiry is reported).
    /// - Throws: `.generation` when no name is given, a name is malformed, or OpenSSL fails.
    public func issue(
        dnsNames: [String] = [],
        ipAddresses: [String] = [],
        usage: CertificateUsage = .server,
        commonName: String? = nil,
        validityDays: Int = 30,
        shiftDays: Int = 0
    ) throws(TLSError) -> IssuedCertificate {
        guard !dnsNames.isEmpty || !ipAddresses.isEmpty else {
            throw TLSError(.generation, "a leaf certificate needs at least one DNS name or IP address")
        }
        guard validityDays >= 1 else { throw TLSError(.generation, "a certificate must be valid for at least one day") }
        guard !usage.isEmpty else { throw TLSError(.generation, "a leaf certificate needs a usage") }
        var alternativeNames: [String] = []
        for name in dnsNames {
            guard TLSServerName.isDNSName(Substring(name), allowWildcard: true) else {
                throw TLSError(.generation, "invalid DNS name \"\(name)\" for a certificate")
            }
            alternativeNames.append("DNS:\(name)")
        }
        var canonicalIPs: [String] = []
        for address in ipAddresses {
            guard let canonical = TLSServerName.canonicalIP(address) else {
                throw TLSError(.generation, "invalid IP address \"\(address)\" for a certificate")
            }
            canonicalIPs.append(canonical)
            alternativeNames.append("IP:\(canonical)")
        }
        let firstName = dnsNames.first ?? canonicalIPs[0]
        let key = try TLSPrivateKey.generateP256()
        let template = CertificateTemplate(
            commonName: commonName ?? (firstName.utf8.count <= 64 ? firstName : "partgate leaf"),
            validityDays: validityDays,
            shiftDays: shiftDays,
            extensions: [
                (NID_basic_constraints, "critical,CA:FALSE"),
                (NID_key_usage, "critical,digitalSignature"),
                (NID_ext_key_usage, usage.extendedKeyUsage),
                (NID_subject_alt_name, alternativeNames.joined(separator: ",")),
                (NID_subject_key_identifier, "hash"),
                (NID_authority_key_identifier, "keyid:always"),
            ]
        )
        let leaf = try template.sign(subjectKey: key, issuer: certificate, issuerKey: privateKey)
        return IssuedCertificate(certificate: leaf, privateKey: key, authority: certificate)
    }

    /// Writes the CA certificate (0644) and, if `keyPath` is given, the CA's private key (0600).
    ///
    /// - Throws: `.file` with the path and the system's reason.
    public func write(certificateTo certificatePath: String, keyTo keyPath: String? = nil) throws(TLSError) {
        if let keyPath { try privateKey.write(to: keyPath) }
        try certificate.write(to: certificatePath)
    }
}
