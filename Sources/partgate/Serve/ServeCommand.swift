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
        do {
            configuration = try ConfigLoader.load(path: config)
        } catch {
            StandardStream.err.write(error.description + "\n")
            throw ExitCode(1)
        }
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
        var settings: EngineSettings
        do {
            settings = try EngineSettings(configuration: configuration)
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
        banner(addresses)
        StartupPages.release()
        let reloader = configPath.map {
            ConfigReloader(path: $0, configuration: configuration, settings: settings, server: server, log: log)
        }
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
            server.drain()  // returns once every listener is closed: the line below means new connections are refused
            log.write(.info, "draining", [("signal", .string(signal == SIGTERM ? "SIGTERM" : "SIGINT"))])
            server.wait()
            log.write(.info, "stopped")
            return
        }
    }
}
