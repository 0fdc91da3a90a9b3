import CEventTLS

// The one place where OpenSSL's error queue and verify results become TLSError reasons.

extension TLSError {
    /// Takes every entry off this thread's OpenSSL error queue, oldest first.
    static func drainErrorQueue() -> [UInt] {
        var codes: [UInt] = []
        while case let code = ERR_get_error(), code != 0 { codes.append(code) }
        return codes
    }

    /// Readable reasons for queued error codes, duplicates removed, order kept.
    ///
    /// libevent records the SSL_get_error() result as a pseudo error (`error:00000001:lib(0)::reason(1)`,
    /// swift-libevent.md P13); entries with no library and no known reason carry nothing and are skipped.
    static func reasons(of codes: [UInt]) -> [String] {
        var texts: [String] = []
        for code in codes {
            let text: String
            if let reason = ERR_reason_error_string(code) {
                text = String(cString: reason)
            } else if ERR_GET_LIB(code) == 0 {
                continue
            } else {
                var buffer = [CChar](repeating: 0, count: 256)
                ERR_error_string_n(code, &buffer, buffer.count)
                text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            }
            if !texts.contains(text) { texts.append(text) }
        }
        return texts
    }

    /// An error whose reason is `what`, followed by what OpenSSL queued on this thread (which is drained).
    ///
    /// - Parameters:
    ///   - code: the kind of failure.
    ///   - what: what partgate tried, e.g. `cannot load certificate /x/y.pem`.
    ///   - fallback: said instead of OpenSSL's reasons when the queue is empty.
    static func openSSL(_ code: Code, _ what: String, fallback: String = "unknown OpenSSL error") -> TLSError {
        let texts = reasons(of: drainErrorQueue())
        return TLSError(code, "\(what): \(texts.isEmpty ? fallback : texts.joined(separator: "; "))")
    }

    /// Turns a failed handshake into a loggable reason: the certificate verification result when verification
    /// is what failed, then the OpenSSL error reasons.
    ///
    /// - Parameters:
    ///   - ssl: the `SSL*` whose handshake failed (still alive).
    ///   - errorCodes: the OpenSSL error codes of the failure. With libevent these come from
    ///     `bufferevent_get_openssl_error`, because libevent empties the thread's queue itself; nil takes (and
    ///     clears) this thread's queue, which is right after a blocking `SSL_connect`/`SSL_accept`.
    ///   - transport: what the transport saw (e.g. `connection reset by peer`), said when OpenSSL queued nothing.
    /// - Returns: a `.handshake` error, e.g. `TLS handshake failed: certificate verify failed: hostname mismatch`.
    public static func handshakeFailure(
        ssl: OpaquePointer,
        errorCodes: [UInt]? = nil,
        transport: String? = nil
    ) -> TLSError {
        let codes = errorCodes ?? drainErrorQueue()
        var parts: [String] = []
        let verifyResult = SSL_get_verify_result(ssl)
        let verificationFailed = codes.contains {
            ERR_GET_LIB($0) == ERR_LIB_SSL && ERR_GET_REASON($0) == SSL_R_CERTIFICATE_VERIFY_FAILED
        }
        // With `verify: false` the result is recorded but ignored; only mention it when it is the failure (or
        // when nothing else was reported).
        if verifyResult != X509_V_OK, verificationFailed || codes.isEmpty {
            parts.append("certificate verify failed: " + String(cString: X509_verify_cert_error_string(verifyResult)))
        }
        for text in reasons(of: codes) where !(verificationFailed && text == "certificate verify failed") {
            parts.append(text)
        }
        if parts.isEmpty { parts.append(transport ?? "the connection closed during the handshake") }
        return TLSError(.handshake, "TLS handshake failed: " + parts.joined(separator: "; "))
    }
}
