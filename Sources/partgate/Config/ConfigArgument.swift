import ArgumentParser
import Policy

/// Loading `--config` and finding `--route` for the commands that read a configuration without serving it
/// (`rewrite`, `inspect`): the loader's diagnostics (file:line:column) or one line naming the routes there are,
/// then exit status 1.
enum ConfigArgument {
    /// The configuration at `path`; on an error, its diagnostics on standard error and exit 1.
    static func load(_ path: String) throws -> ProxyConfiguration {
        do {
            return try ConfigLoader.load(path: path)
        } catch {
            for diagnostic in error.diagnostics { StandardStream.err.write("\(diagnostic)\n") }
            throw ExitCode(1)
        }
    }

    /// The route named `name` in `configuration` (loaded from `path`); otherwise one line for `command` and exit 1.
    static func route(_ name: String, in configuration: ProxyConfiguration, path: String, command: String) throws
        -> RouteConfiguration
    {
        guard let found = configuration.routes.first(where: { $0.name == name }) else {
            let names = configuration.routes.map { "'\($0.name)'" }.joined(separator: ", ")
            StandardStream.err.write(
                "partgate \(command): --route '\(name)': no such route in \(path) (routes: \(names))\n")
            throw ExitCode(1)
        }
        return found
    }
}
