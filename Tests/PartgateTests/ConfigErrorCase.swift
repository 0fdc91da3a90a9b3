import Foundation
import Testing

/// One refused configuration and the exact `line:column: error: reason` lines `check` must print for it.
struct ConfigErrorCase: Sendable, CustomTestStringConvertible {
    /// What the case shows.
    var name: String
    /// The configuration text.
    var yaml: String
    /// The expected stderr lines, each without its `FILE:` prefix.
    var expected: [String]

    var testDescription: String { name }

    /// ``CheckCommandTests/minimal`` with `old` replaced by `new` (which must occur).
    static func minimal(replacing old: String, with new: String) -> String {
        precondition(CheckCommandTests.minimal.contains(old), "minimal configuration lacks \(old)")
        return CheckCommandTests.minimal.replacingOccurrences(of: old, with: new)
    }

    /// ``CheckCommandTests/minimal`` with `route` lines appended to the route `r` (indented as its keys).
    static func minimal(route lines: String) -> String {
        CheckCommandTests.minimal
            + lines.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.isEmpty ? "" : "    " + $0 }.joined(separator: "\n")
    }
}
