import ArgumentParser
import Foundation
import Policy
import ProxyEngine

/// `partgate serve --config FILE`: the proxy.
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the proxy with a configuration file.",
        discussion: """
            Logs JSON lines on standard output, one `listening` line per bound address (port 0 is resolved). \
            SIGTERM or SIGINT stop accepting and let in-flight requests finish (up to limits.drain_timeout), \
            then exit 0. SIGHUP reloads FILE as `check` reads it: a configuration that fails is refused with \
            one `configuration reload refused` line and the one in effect keeps serving; a good one is logged \
            as `configuration reloaded` with its generation (docs/reload.md).
            """
    )

    @Option(name: .long, help: "The YAML configuration file.")
    var config: String

    @OptionGroup var logging: LoggingOptions

    func run() throws {
        let configuration: ProxyConfiguration
        var warnings: [ConfigDiagnostic] = []
        do {
            configuration = try ConfigLoader.load(path: config, warnings: &warnings)
        } catch {
            StandardStream.err.write(error.description + "\n")
            throw ExitCode(1)
        }
        for warning in warnings { StandardStream.err.write("\(warning)\n") }  // as nginx's [warn] at start
        try ProxyRunner.run(
            configuration: configuration, extraUpstreams: [:], log: logging.makeLog(), configPath: config)
    }
}

/// Starts the engine for a configuration, logs the bound addresses, and serves until SIGTERM/SIGINT; SIGHUP
/// reloads `configPath` (``ConfigReloader``) when there is one.
enum ProxyRunner {
    static func run(
        configuration: ProxyConfiguration, extraUpstreams: [String: UpstreamSettings], log: ServerLog,
        configPath: String? = nil, banner: ([SocketAddress]) -> Void = { _ in }
    ) throws {
        SignalWaiter.block()
        log.raiseFileDescriptorLimit()
        PartgateMetrics.bootstrap()
        let readiness = ReadinessMonitor(upstreams: ReadinessMonitor.upstreams(of: configuration))
        defer { readiness.stop() }
        var settings: EngineSettings
        do {
            // An upstream whose host does not resolve does not stop the others: its routes answer 502 and
            // /readyz answers 503 naming it.
            settings = try EngineSettings(configuration: configuration) { name, reason in
                log.write(
                    .error, "upstream does not resolve", [("upstream", .string(name)), ("reason", .string(reason))])
                readiness.unresolvedAtStart(name, reason: reason)
            }
        } catch {
            StandardStream.err.write("partgate: \(error)\n")
            throw ExitCode(1)
        }
        settings.upstreams.merge(extraUpstreams) { _, extra in extra }
        let server = ProxyServer(settings: settings, events: log.events)
        let addresses: [SocketAddress]
        do {
            addresses = try server.start()
        } catch {
            StandardStream.err.write("partgate: \(error)\n")
            throw ExitCode(1)
        }
        for (address, listener) in zip(addresses, settings.listeners) {
            log.write(.info, "listening", [("address", .string(address.description)),
                                           ("tls", .string(listener.tls == nil ? "false" : "true"))])
        }
        // Before the admin listener is announced: whoever reads its address from the log and asks /readyz
        // must find the proxy's listeners counted as bound (they are, above).
        readiness.listenersAreBound()
        let admin = AdminEndpoint(handlers: AdminHandlers(
            metrics: { PartgateMetrics.render() }, readiness: { readiness.readiness }))
        do {
            if let bound = try admin.start(configuration.admin) {
                log.write(.info, "listening", [("address", .string(bound.description)), ("tls", .string("false")),
                                               ("admin", .string("true"))])
            }
        } catch {
            StandardStream.err.write("partgate: admin listener: \(error)\n")
            server.stop()
            server.wait()
            throw ExitCode(1)
        }
        defer { admin.stop() }
        banner(addresses)
        let reloader = configPath.map {
            ConfigReloader(
                path: $0, configuration: configuration, settings: settings, server: server, admin: admin, log: log
            ) {
                reloaded in
                readiness.reloaded(upstreams: ReadinessMonitor.upstreams(of: reloaded))
            }
        }
        // The last start-up step: code run after it would fault its pages back in (see StartupPages). The workers
        // release again after their first exchanges.
        StartupPages.release()
        StartupPages.releaseAfterFirstUse()
        while true {
            let signal = SignalWaiter.next()
            if signal == SIGHUP {
                if let reloader {
                    reloader.reload()
                } else {
                    log.write(.warning, "SIGHUP: no configuration file to reload; keeping the current one")
                }
                continue
            }
            readiness.beginDraining()
            server.drain()  // returns once every listener is closed: the line below means new connections are refused
            log.write(.info, "draining", [("signal", .string(signal == SIGTERM ? "SIGTERM" : "SIGINT"))])
            server.wait()
            log.write(.info, "stopped")
            return
        }
    }
}
