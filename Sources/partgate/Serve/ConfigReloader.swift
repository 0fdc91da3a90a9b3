import Foundation
import Logging
import Policy
import ProxyEngine

/// SIGHUP for `partgate serve`: re-reads the configuration file exactly as `partgate check` does and, if it
/// loads and can start, swaps it into every worker (``ProxyServer/reload(settings:)``); otherwise logs one
/// `configuration reload refused` line naming the first problem (`file:line:column: error: reason`) and
/// the configuration in effect keeps serving.
///
/// An upstream whose configuration entry and whose certificate, key and CA files are unchanged, and which
/// still resolves to the same address, keeps its TLS context, so its pooled connections and cached TLS
/// sessions stay; any other upstream gets a new context, and its idle connections are closed.
final class ConfigReloader {
    /// The configuration file (as given to `serve --config`).
    let path: String
    private let server: ProxyServer
    /// The admin listener, which the reload may add, move or remove.
    private let admin: AdminEndpoint
    private let log: ServerLog
    /// The engine settings in effect.
    private var settings: EngineSettings
    /// What each upstream in effect was built from.
    private var sources: [String: UpstreamSource]

    /// - Parameters:
    ///   - path: the configuration file.
    ///   - configuration: the configuration the server started with.
    ///   - settings: the engine settings it started with.
    ///   - server: the running server.
    ///   - admin: the admin listener.
    ///   - log: where the outcome goes.
    /// Told of each configuration that took effect (readiness re-checks its upstreams).
    private let onReloaded: (ProxyConfiguration) -> Void

    init(
        path: String, configuration: ProxyConfiguration, settings: EngineSettings, server: ProxyServer,
        admin: AdminEndpoint, log: ServerLog,
        onReloaded: @escaping (ProxyConfiguration) -> Void = { _ in }
    ) {
        self.onReloaded = onReloaded
        self.path = path
        self.server = server
        self.admin = admin
        self.log = log
        self.settings = settings
        self.sources = UpstreamSource.all(of: configuration)
    }

    /// One reload attempt; its outcome is logged (`configuration reloaded` or `configuration reload refused`).
    func reload() {
        let configuration: ProxyConfiguration
        do {
            configuration = try ConfigLoader.load(path: path)
        } catch {
            let first = error.diagnostics[0]
            refuse(first.description, [("problems", .stringConvertible(error.diagnostics.count))])
            return
        }
        var next: EngineSettings
        do {
            next = try EngineSettings(configuration: configuration)
        } catch {
            refuse("\(path): error: \(error.description)")
            return
        }
        let nextSources = UpstreamSource.all(of: configuration)
        for (name, upstream) in next.upstreams {
            guard let old = settings.upstreams[name], sources[name] == nextSources[name],
                old.addresses == upstream.addresses
            else { continue }
            next.upstreams[name]?.tls = old.tls
        }
        // The admin listener first: a new address that cannot be bound refuses the reload before any of it
        // took effect.
        let adminChange: AdminEndpoint.Change
        do {
            adminChange = try admin.prepare(configuration.admin)
        } catch {
            refuse("\(path): error: admin listener: \(error)")
            return
        }
        let summary: ReloadSummary
        do {
            summary = try server.reload(settings: next)
        } catch {
            adminChange.cancel()
            refuse("\(path): error: \(error.description)")
            return
        }
        let (adminAdded, adminRemoved) = adminChange.commit()
        settings = next
        sources = nextSources
        onReloaded(configuration)
        for listener in summary.added {
            log.write(.info, "listening", [("address", .string(listener.address.description)),
                                           ("tls", .string(listener.tls == nil ? "false" : "true"))])
        }
        for address in summary.removed {
            log.write(.info, "stopped listening", [("address", .string(address.description))])
        }
        if let adminRemoved {
            log.write(.info, "stopped listening", [("address", .string(adminRemoved.description)),
                                                   ("admin", .string("true"))])
        }
        if let adminAdded {
            log.write(.info, "listening", [("address", .string(adminAdded.description)), ("tls", .string("false")),
                                           ("admin", .string("true"))])
        }
        log.write(.info, "configuration reloaded", [
            ("generation", .stringConvertible(summary.generation)), ("file", .string(path)),
            ("listeners", .stringConvertible(server.addresses.count)),
            ("routes", .stringConvertible(configuration.routes.count)),
            ("drained_upstreams", .string(summary.drainedUpstreams.joined(separator: ","))),
        ])
    }

    private func refuse(_ reason: String, _ extra: [(String, Logger.Metadata.Value)] = []) {
        log.write(.error, "configuration reload refused",
                  [("error", .string(reason)), ("generation", .stringConvertible(server.generation))] + extra)
    }
}

/// What an upstream's connections depend on: its configuration entry and the bytes of the files it names.
struct UpstreamSource: Hashable {
    var configuration: UpstreamConfiguration
    var files: [[UInt8]?]

    init(_ configuration: UpstreamConfiguration) {
        self.configuration = configuration
        let tls = configuration.effectiveTLS
        files = [tls?.ca, tls?.clientCertificate, tls?.clientKey].map { path in
            path.flatMap { try? FileBytes.read($0, limit: 16 << 20) }
        }
    }

    static func all(of configuration: ProxyConfiguration) -> [String: UpstreamSource] {
        configuration.upstreams.mapValues(UpstreamSource.init)
    }
}
