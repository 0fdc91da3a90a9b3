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
            then exit 0.
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
        try ProxyRunner.run(configuration: configuration, extraUpstreams: [:], log: logging.makeLog())
    }
}

/// Starts the engine for a configuration, logs the bound addresses, and serves until SIGTERM/SIGINT.
enum ProxyRunner {
    static func run(
        configuration: ProxyConfiguration, extraUpstreams: [String: UpstreamSettings], log: ServerLog,
        banner: ([SocketAddress]) -> Void = { _ in }
    ) throws {
        SignalWaiter.block()
        log.raiseFileDescriptorLimit()
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
        while true {
            let signal = SignalWaiter.next()
            if signal == SIGHUP {
                log.write(.warning, "SIGHUP: configuration reload is not implemented yet; keeping the current one")
                continue
            }
            log.write(.info, "draining", [("signal", .string(signal == SIGTERM ? "SIGTERM" : "SIGINT"))])
            server.drain()
            server.wait()
            log.write(.info, "stopped")
            return
        }
    }
}
