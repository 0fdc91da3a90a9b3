import Foundation
import HTTP1
import Multipart
import Policy
import ProxyEngine
import Testing

/// docs/problems.md lists every `flag` a problem response can carry, with its status, and README.md's
/// status summary names every status those flags use.
///
/// The flags come from the code, not from a list kept here: every HTTP/1.1 error code, strict flag and
/// multipart limit by enumeration, the policy's route-level reasons, and every `Problem(STATUS, "name")` the
/// engine's sources construct (found by scanning Sources/ProxyEngine).
@Suite("docs/problems.md")
struct ProblemCatalogTests {
    static let root = TourCommand.repositoryRoot

    static var catalog: String {
        get throws { try String(contentsOf: root.appendingPathComponent("docs/problems.md"), encoding: .utf8) }
    }

    /// Every `(flag, status)` the code can send.
    static func flags() throws -> [(name: String, status: Int)] {
        var flags: [(name: String, status: Int)] = []
        flags += HTTP1Error.Code.allCodes.map { ($0.name, $0.suggestedStatus) }
        flags += StrictFlag.allCases.map { ($0.rawValue, 400) }
        flags += MultipartLimit.allCases.map { ("limit_" + $0.rawValue, 413) }
        flags += [
            (PolicyRejection.Reason.defaultAction.rawValue, 403), (PolicyRejection.Reason.unsafeFilename.rawValue, 400),
            (PolicyRejection.Reason.charset.rawValue, 415),
        ]
        flags.append((RequestAdmission.noRoute.name, RequestAdmission.noRoute.status))
        flags += try engineProblems()
        return flags
    }

    /// `Problem(NNN, "name"` in the engine's sources.
    static func engineProblems() throws -> [(name: String, status: Int)] {
        let folder = root.appendingPathComponent("Sources/ProxyEngine")
        let pattern = try Regex(#"Problem\((\d{3}), "([a-z_]+)""#)
        var found: [(name: String, status: Int)] = []
        let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
        while let file = files?.nextObject() as? URL {
            guard file.pathExtension == "swift" else { continue }
            let text = try String(contentsOf: file, encoding: .utf8)
            for match in text.matches(of: pattern) {
                let status = Int(match.output[1].substring!)!
                found.append((String(match.output[2].substring!), status))
            }
        }
        return found
    }

    @Test func scanFindsTheEngineProblems() throws {
        let names = Set(try Self.engineProblems().map(\.name))
        #expect(
            names.isSuperset(of: ["upstream_timeout", "limit_body_bytes", "other_body", "header_timeout"]),
            "the source scan found \(names.sorted())")
    }

    @Test func everyFlagHasARowWithItsStatus() throws {
        let catalog = try Self.catalog
        let missing = try Self.flags().filter { !catalog.contains("| `\($0.name)` | \($0.status) |") }
        #expect(missing.isEmpty, "docs/problems.md lacks rows: \(missing.map { "| `\($0.name)` | \($0.status) |" })")
    }

    @Test func statusTableUsesTheEngineTitles() throws {
        let catalog = try Self.catalog
        let statuses = Set(try Self.flags().map(\.status))
        for status in statuses.sorted() {
            #expect(catalog.contains("| \(status) | \(Problem.reason(status)) |"), "no status row for \(status)")
        }
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let summary = try #require(readme.components(separatedBy: "## Status codes and problems").dropFirst().first)
        for status in statuses.sorted() {
            #expect(summary.contains("\(status) "), "README's status summary omits \(status)")
        }
    }
}
