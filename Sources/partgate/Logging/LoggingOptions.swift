import ArgumentParser
import Foundation
import Logging

/// `--log-level` and `--log-format` for the commands that serve.
struct LoggingOptions: ParsableArguments {
    @Option(name: .long, help: "Lowest level logged: trace, debug, info, notice, warning, error, critical.")
    var logLevel: String = "info"

    @Option(name: .long, help: "json (default when standard output is not a terminal) or text.")
    var logFormat: String?

    func validate() throws {
        guard Logger.Level(rawValue: logLevel) != nil else {
            throw ValidationError("--log-level \(logLevel): expected one of "
                + Logger.Level.allCases.map(\.rawValue).joined(separator: ", "))
        }
        if let logFormat, logFormat != "json", logFormat != "text" {
            throw ValidationError("--log-format \(logFormat): expected json or text")
        }
    }

    func makeLog() -> ServerLog {
        ServerLog(level: Logger.Level(rawValue: logLevel) ?? .info, json: logFormat.map { $0 == "json" } ?? (isatty(1) == 0))
    }
}
