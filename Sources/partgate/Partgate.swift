import ArgumentParser

@main
struct Partgate: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "partgate",
        abstract: "A streaming multipart/form-data policy gateway."
    )
}
