/// One shell command of README.md's five-minute tour: the command, the exit status it must end with and the
/// lines its standard output must contain.
///
/// The tour lives in fenced blocks whose info string is `sh tour`. In them a `#> TEXT` line after a command
/// says that the command prints TEXT; `#> exit N` says it exits N (default 0); other `#` lines are comments
/// for the reader.
struct TourCommand: CustomStringConvertible {
    /// The command line as README.md shows it.
    var command: String
    /// The exit status README.md promises.
    var exitStatus: Int32 = 0
    /// Text standard output must contain, in README.md's order.
    var prints: [String] = []

    var description: String { command }

    /// The repository root (this file is Tests/PartgateTests/Readme/TourCommand.swift).
    static let repositoryRoot = PartgateBinary.repositoryRoot().deletingLastPathComponent()

    /// The tour's commands from the `sh tour` blocks of `markdown`, in order.
    static func parse(markdown: String) -> [TourCommand] {
        var commands: [TourCommand] = []
        var inTour = false
        var inOtherBlock = false
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.hasPrefix("```") {
                if inTour || inOtherBlock {
                    inTour = false
                    inOtherBlock = false
                } else if line.dropFirst(3).trimmingSpaces == "sh tour" {
                    inTour = true
                } else {
                    inOtherBlock = true
                }
                continue
            }
            guard inTour else { continue }
            let text = line.trimmingSpaces
            if text.hasPrefix("#> ") {
                let expectation = String(text.dropFirst(3))
                guard !commands.isEmpty else { continue }
                if expectation.hasPrefix("exit "), let status = Int32(expectation.dropFirst(5)) {
                    commands[commands.count - 1].exitStatus = status
                } else {
                    commands[commands.count - 1].prints.append(expectation)
                }
            } else if !text.isEmpty && !text.hasPrefix("#") {
                commands.append(TourCommand(command: text))
            }
        }
        return commands
    }
}

extension String {
    /// Without leading and trailing spaces and tabs.
    fileprivate var trimmingSpaces: String {
        var scalars = Substring(self)
        while let first = scalars.first, first == " " || first == "\t" { scalars.removeFirst() }
        while let last = scalars.last, last == " " || last == "\t" { scalars.removeLast() }
        return String(scalars)
    }
}

extension Substring {
    fileprivate var trimmingSpaces: String { String(self).trimmingSpaces }
}
