import ArgumentParser
import Foundation

/// The `partgate` command line: `serve`, `check`, `demo`, `inspect` and `rewrite`.
@main
struct Partgate: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "partgate",
        abstract: "A streaming multipart/form-data policy gateway.",
        subcommands: [
            ServeCommand.self, CheckCommand.self, DemoCommand.self, InspectCommand.self, RewriteCommand.self,
        ]
    )

    /// Runs the command. A usage error (unknown option, missing or invalid value) prints one line,
    /// `partgate SUBCOMMAND: MESSAGE (see 'partgate SUBCOMMAND --help')`, and exits 1, the status every
    /// subcommand documents for usage errors, instead of ArgumentParser's EX_USAGE (64).
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            guard exitCode(for: error) == .validationFailure else { exit(withError: error) }
            var name = "partgate"
            if let first = CommandLine.arguments.dropFirst().first,
                configuration.subcommands.contains(where: { $0.configuration.commandName == first })
            {
                name += " " + first
            }
            StandardStream.err.write("\(name): \(message(for: error)) (see '\(name) --help')\n")
            Foundation.exit(1)
        }
    }
}
