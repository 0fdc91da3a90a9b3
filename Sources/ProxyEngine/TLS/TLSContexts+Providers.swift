/// The engine's TLS seams implemented by the OpenSSL contexts.
extension TLSServerContext: ServerTLSProvider {
    public func makeServerSSL() -> OpaquePointer? {
        try? makeSSL()
    }
}

extension TLSClientContext: UpstreamTLSProvider {
    public func makeClientSSL(serverName: String) -> OpaquePointer? {
        try? makeSSL(serverName: serverName)
    }

    public func handshakeCompleted(_ ssl: OpaquePointer, serverName: String) {
        remember(ssl: ssl, serverName: serverName)
    }

    public func failureReason(_ ssl: OpaquePointer?, errorCodes: [UInt]) -> String {
        guard let ssl else { return "TLS setup failed" }
        return TLSError.handshakeFailure(ssl: ssl, errorCodes: errorCodes).reason
    }
}
