import Foundation
import Testing

/// `docs/conformance.md` is rendered from `decisions.json` by `scripts/conformance-table.py`; these tests
/// fail when the committed page and the decisions disagree (re-run the script).
@Suite("Conformance: docs/conformance.md matches decisions.json")
struct ConformanceDocTests {
    static func pageLines() throws -> [Substring] {
        try String(contentsOf: ConformancePaths.table, encoding: .utf8).split(
            separator: "\n", omittingEmptySubsequences: false)
    }

    @Test func everyDecisionHasItsRow() throws {
        let lines = Set(try Self.pageLines())
        for decision in try Decisions.load() {
            let row = ConformanceTable.row(decision)
            let present = lines.contains(Substring(row))
            #expect(present, "stale or missing row (run scripts/conformance-table.py):\n\(row)")
        }
    }

    @Test func thePageHasNoOtherCaseRows() throws {
        let rows = try Self.pageLines().filter { $0.hasPrefix("| `") }
        #expect(rows.count == (try Decisions.load()).count)
        #expect(Set(rows).count == rows.count)
    }

    @Test func summaryCountsMatch() throws {
        let lines = Set(try Self.pageLines())
        let decisions = try Decisions.load()
        var expected = Dictionary(grouping: decisions, by: \.corpus).map {
            ConformanceTable.summaryRow($0.key, $0.value)
        }
        let formidable = decisions.filter { $0.corpus == "formidable" }
        expected.append(
            ConformanceTable.summaryRow(
                "formidable: parser vectors", formidable.filter { $0.name.hasPrefix("parser-vectors/") }))
        expected.append(
            ConformanceTable.summaryRow("formidable: HTTP requests", formidable.filter { $0.name.hasPrefix("http/") }))
        expected.append(ConformanceTable.summaryRow("all", decisions))
        for row in expected {
            let present = lines.contains(Substring(row))
            #expect(present, "stale summary row (run scripts/conformance-table.py):\n\(row)")
        }
    }
}
