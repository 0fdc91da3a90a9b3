/// A TLS setup or handshake failure, with a reason a person can act on.
///
/// `reason` reads like a log line: what partgate tried, on which file or name, and why OpenSSL refused, e.g.
/// `cannot load certificate /etc/partgate/server.pem: no start line` or
/// `TLS handshake failed: certificate verify failed: hostname mismatch`. All OpenSSL error-queue
/// translation happens in `TLSError+OpenSSL.swift`.
public struct TLSError: Error, Hashable, CustomStringConvertible, Sendable {
    /// What kind of failure this is; compare against the `static let`s.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String, Hashable, Sendable {
            case certificate
            case privateKey
            case keyMismatch
            case trustRoots
            case context
            case serverName
            case connection
            case handshake
            case generation
            case file
        }

        private let base: Base
        private init(_ base: Base) { self.base = base }

        /// A certificate (chain) could not be read, parsed or installed.
        public static let certificate = Code(.certificate)
        /// A private key could not be read, parsed or installed (also: encrypted keys, which partgate refuses).
        public static let privateKey = Code(.privateKey)
        /// The private key is not the key of the certificate it is configured with.
        public static let keyMismatch = Code(.keyMismatch)
        /// The CA file or trust store could not be loaded.
        public static let trustRoots = Code(.trustRoots)
        /// An `SSL_CTX` could not be created or configured.
        public static let context = Code(.context)
        /// A server name is neither a DNS name nor an IP literal.
        public static let serverName = Code(.serverName)
        /// A per-connection `SSL` object could not be created or configured.
        public static let connection = Code(.connection)
        /// A TLS handshake failed (verification, protocol, alert from the peer, I/O).
        public static let handshake = Code(.handshake)
        /// A key or certificate could not be generated or signed.
        public static let generation = Code(.generation)
        /// A PEM file could not be written.
        public static let file = Code(.file)

        public var description: String { base.rawValue }
    }

    /// The kind of failure.
    public let code: Code
    /// The human-readable reason, complete on its own (it already includes OpenSSL's reasons).
    public let reason: String

    /// - Parameters:
    ///   - code: the kind of failure.
    ///   - reason: the complete human-readable reason.
    public init(_ code: Code, _ reason: String) {
        self.code = code
        self.reason = reason
    }

    public var description: String { reason }
}
