import ArgumentParser

/// The `partgate` command line: `check` and `inspect` today; `serve`, `demo` and `rewrite` join it.
@main
struct Partgate: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "partgate",
        abstract: "A streaming multipart/form-data policy gateway.",
        subcommands: [ServeCommand.self, CheckCommand.self, DemoCommand.self, InspectCommand.self]
    )
}
