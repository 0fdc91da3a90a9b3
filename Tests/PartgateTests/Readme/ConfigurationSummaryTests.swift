import Foundation
import Testing

/// README.md's configuration summary names every key docs/configuration.md documents, so that each key and its
/// default is one link away from the README.
@Suite("README configuration summary")
struct ConfigurationSummaryTests {
    /// The last component of every key in docs/configuration.md's tables (`routes[].match.path_prefix` gives
    /// `path_prefix`; `upstreams.NAME.tls.client_certificate`, `client_key` gives both names).
    static func documentedKeys() throws -> Set<String> {
        let text = try String(
            contentsOf: TourCommand.repositoryRoot.appendingPathComponent("docs/configuration.md"), encoding: .utf8)
        var keys: Set<String> = []
        for line in text.split(separator: "\n") where line.hasPrefix("| `") {
            let cell = line.dropFirst(2).prefix { $0 != "|" }
            for quoted in cell.split(separator: "`") where !quoted.trimmingCharacters(in: .whitespaces).isEmpty {
                let word = quoted.trimmingCharacters(in: .whitespaces)
                guard word != "," else { continue }
                let leaf = word.split(whereSeparator: { ".[]".contains($0) }).last { $0 != "NAME" }
                if let leaf { keys.insert(String(leaf)) }
            }
        }
        return keys
    }

    @Test func readsTheReference() throws {
        let keys = try Self.documentedKeys()
        #expect(keys.isSuperset(of: ["version", "path_prefix", "drain_timeout", "client_key", "on_exceed"]), "\(keys)")
    }

    @Test func summaryNamesEveryKey() throws {
        let readme = try String(
            contentsOf: TourCommand.repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let start = try #require(readme.range(of: "## Configuration"))
        let end = try #require(readme.range(of: "## Command line"))
        let summary = String(readme[start.upperBound..<end.lowerBound])
        let words = Set(summary.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "_") }).map(String.init))
        let missing = try Self.documentedKeys().subtracting(words)
        #expect(missing.isEmpty, "README's configuration summary lacks \(missing.sorted())")
    }
}
