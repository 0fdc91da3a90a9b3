import Foundation
import HTTP1
import Policy
import ProxyEngine

extension EngineSettings {
    /// The engine's view of a loaded configuration: resolved upstream addresses and OpenSSL contexts
    /// (one per listener certificate and one per upstream, shared by all workers).
    /// - Parameter unresolved: when given, an upstream whose host does not resolve is left out (its routes
    ///   answer 502) and reported here (name, reason) instead of failing the whole configuration.
    /// - Throws: ``StartupError`` when a host does not resolve (unless `unresolved` is given) or OpenSSL refuses a
    ///   certificate or key.
    init(
        configuration: ProxyConfiguration, unresolved: ((String, String) -> Void)? = nil
    ) throws(StartupError) {
        var listeners: [ListenerSettings] = []
        for listener in configuration.listeners {
            guard let address = SocketAddress(listener.address.description) else {
                throw StartupError("listener \(listener.address): not a numeric address")
            }
            var tls: (any ServerTLSProvider)?
            if let files = listener.tls {
                do {
                    tls = try TLSServerContext(certificateChainFile: files.certificate, keyFile: files.key)
                } catch {
                    throw StartupError("listener \(listener.address): \(error.reason)")
                }
            }
            listeners.append(ListenerSettings(address: address, tls: tls))
        }
        var upstreams: [String: UpstreamSettings] = [:]
        for (name, upstream) in configuration.upstreams {
            if let unresolved {
                do {
                    _ = try SocketAddress.resolve(host: upstream.url.host, port: upstream.url.port)
                } catch {
                    unresolved(name, error.description)
                    continue
                }
            }
            upstreams[name] = try Self.upstream(name, upstream)
        }
        let limits = configuration.limits
        let workers = configuration.workers.resolved(cores: ProcessInfo.processInfo.activeProcessorCount)
        self.init(
            workers: workers,
            listeners: listeners, upstreams: upstreams, routes: configuration.routes,
            headLimits: HeadLimits(limits),
            headerTimeout: limits.headerTimeout, idleTimeout: limits.idleTimeout, drainTimeout: limits.drainTimeout)
        maxConnectionsPerWorker = configuration.maxConnections.perWorker(
            workers: workers, descriptorLimit: FileDescriptorLimit.current ?? 1024)
    }

    private static func upstream(_ name: String, _ upstream: UpstreamConfiguration) throws(StartupError) -> UpstreamSettings {
        let addresses: [SocketAddress]
        do {
            addresses = try SocketAddress.resolveAll(host: upstream.url.host, port: upstream.url.port)
        } catch {
            throw StartupError("upstream \(name): \(error)")
        }
        var tls: (any UpstreamTLSProvider)?
        if let settings = upstream.effectiveTLS {
            let identity: TLSIdentity? = settings.clientCertificate.flatMap { certificate in
                settings.clientKey.map { TLSIdentity.files(certificateChain: certificate, privateKey: $0) }
            }
            do {
                tls = try TLSClientContext(
                    trustRoots: settings.ca.map { TLSTrustRoots.file($0) } ?? .system, verify: settings.verify,
                    identity: identity)
            } catch {
                throw StartupError("upstream \(name): \(error.reason)")
            }
        }
        var settings = UpstreamSettings(
            name: name, address: addresses[0], serverName: upstream.serverName ?? upstream.url.host, tls: tls,
            connectTimeout: upstream.connectTimeout, responseTimeout: upstream.responseTimeout,
            maxIdleConnections: upstream.maxIdleConnections)
        settings.alternateAddresses = Array(addresses.dropFirst())
        return settings
    }
}

/// A configuration that loaded but cannot start (a name that does not resolve, a key OpenSSL refuses).
struct StartupError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
