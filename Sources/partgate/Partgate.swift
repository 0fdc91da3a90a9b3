import ArgumentParser

/// The `partgate` command line: `inspect` today; `serve`, `check`, `demo` and `rewrite` join it.
@main
struct Partgate: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "partgate",
        abstract: "A streaming multipart/form-data policy gateway.",
        subcommands: [InspectCommand.self]
    )
}
