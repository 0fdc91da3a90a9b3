import Foundation

/// Where the conformance inputs live: the shared corpus next to the repository, the decisions file
/// beside these tests, and the generated table under `docs/`.
enum ConformancePaths {
    /// The repository root: `Tests/MultipartTests/Conformance/ConformancePaths.swift`, three levels up.
    static let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Conformance
        .deletingLastPathComponent()  // MultipartTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()

    /// `<root>/../shared/corpus`, read in place.
    static let corpus: URL = repositoryRoot.appendingPathComponent("../shared/corpus").standardizedFileURL

    /// The single source of truth for the decisions.
    static let decisions: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()
        .appendingPathComponent("decisions.json")

    /// The table rendered from the decisions by `scripts/conformance-table.py`.
    static let table: URL = repositoryRoot.appendingPathComponent("docs/conformance.md")

    /// A file of one corpus, e.g. `corpusFile("busboy", "cases/cases.json")`.
    static func corpusFile(_ corpus: String, _ path: String) -> URL {
        self.corpus.appendingPathComponent(corpus).appendingPathComponent(path)
    }

    /// The bytes of a file.
    static func bytes(_ url: URL) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: url))
    }
}
