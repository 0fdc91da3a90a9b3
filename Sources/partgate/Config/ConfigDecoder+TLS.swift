import Policy
import ProxyEngine

/// The TLS check that runs once the files passed theirs: OpenSSL builds every context `serve` will build, so a
/// configuration `check` accepts starts. (The PEM check alone let through a certificate of garbage base64, a key
/// that does not match its certificate, and a CA file OpenSSL cannot parse.)
extension ConfigDecoder {
    /// Builds each listener's server context and each TLS upstream's client context, reporting a refusal at the
    /// key's line (a listener, a client certificate) or the CA's.
    func checkTLSContexts(_ configuration: ProxyConfiguration) {
        for listener in configuration.listeners {
            guard let files = listener.tls else { continue }
            do {
                let context = try TLSServerContext(certificateChainFile: files.certificate, keyFile: files.key)
                if let validity = context.leafValidity, validity.state != .valid {
                    let node = pemFiles.first { $0.path == files.certificate }?.node
                    let when =
                        validity.state == .expired
                        ? "expired on \(validity.notAfter)" : "is not valid before \(validity.notBefore)"
                    warn(
                        at: node,
                        "listener \(listener.address): certificate \(files.certificate) \(when); clients that verify it "
                            + "refuse the handshake")
                }
            } catch {
                reportTLS(error.reason, at: [files.key, files.certificate], "listener \(listener.address)")
            }
        }
        for (name, upstream) in configuration.upstreams.sorted(by: { $0.key < $1.key }) {
            guard let settings = upstream.effectiveTLS else { continue }
            if let ca = settings.ca {
                do {
                    _ = try TLSClientContext(trustRoots: .file(ca), verify: settings.verify)
                } catch {
                    reportTLS(error.reason, at: [ca], "upstream \(name)")
                    continue
                }
            }
            guard let certificate = settings.clientCertificate, let key = settings.clientKey else { continue }
            do {
                _ = try TLSClientContext(
                    trustRoots: .certificates([]), verify: false,
                    identity: .files(certificateChain: certificate, privateKey: key))
            } catch {
                reportTLS(error.reason, at: [key, certificate], "upstream \(name)")
            }
        }
    }

    /// Reports OpenSSL's `reason` at the first of `paths` the configuration named (its path's node).
    private func reportTLS(_ reason: String, at paths: [String], _ owner: String) {
        let file = paths.lazy.compactMap { path in self.pemFiles.first { $0.path == path } }.first
        let what = file.map { "\($0.what): " } ?? ""
        report(.invalidPEM, at: file?.node, "\(what)\(owner): OpenSSL refused the TLS files: \(reason)")
    }
}
