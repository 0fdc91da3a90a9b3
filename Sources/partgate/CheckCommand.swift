import ArgumentParser
import Policy

/// `partgate check --config FILE`: validate a configuration the way `serve` would load it (like `nginx -t`).
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Validate a configuration file and report every problem with file:line:column.",
        discussion: """
            Loads FILE exactly as serve does: YAML syntax, known keys only, types, sizes, durations, \
            addresses, upstream references, strict flags, rename templates, and the certificate, key and CA \
            files it names (they must exist, be readable and hold PEM data of the right kind, and OpenSSL must \
            build every TLS context serve builds from them: a key that does not match its certificate fails). \
            On success prints "FILE: ok" and a summary line to standard output and exits 0; otherwise prints \
            one "FILE:LINE:COLUMN: error: REASON" line per problem to standard error and exits 1.
            """
    )

    @Option(name: [.customShort("c"), .long], help: "The configuration file (YAML, version: 1).")
    var config: String

    func run() throws {
        let loaded: ProxyConfiguration
        var warnings: [ConfigDiagnostic] = []
        do {
            loaded = try ConfigLoader.load(path: config, warnings: &warnings)
        } catch {
            for diagnostic in error.diagnostics {
                StandardStream.err.write("\(diagnostic)\n")
            }
            throw ExitCode(1)
        }
        for warning in warnings { StandardStream.err.write("\(warning)\n") }
        StandardStream.out.write("\(config): ok\n\(Self.summary(of: loaded))\n")
    }

    /// `2 listeners, 1 upstream, 1 route, 3 rules` (plus the admin address when there is one).
    static func summary(of configuration: ProxyConfiguration) -> String {
        func count(_ number: Int, _ noun: String) -> String { "\(number) \(noun)\(number == 1 ? "" : "s")" }
        var pieces = [
            count(configuration.listeners.count, "listener"),
            count(configuration.upstreams.count, "upstream"),
            count(configuration.routes.count, "route"),
            count(configuration.ruleCount, "rule"),
        ]
        if let admin = configuration.admin { pieces.append("admin on \(admin.address)") }
        return pieces.joined(separator: ", ")
    }
}
