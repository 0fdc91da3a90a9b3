import Foundation
import Policy
import Testing

@testable import partgate

/// `routes[].buffer_small_bodies`: a size (0 allowed: always chunked), 64 KiB by default; bad values named at their
/// line:column.
@Suite("Config: buffer_small_bodies")
struct SmallBodyConfigTests {
    static func load(_ yaml: String) throws -> ProxyConfiguration {
        let workspace = try ConfigWorkspace()
        defer { workspace.remove() }
        return try ConfigLoader.load(path: try workspace.write(yaml, to: "partgate.yaml"))
    }

    @Test(arguments: [("0", Int64(0)), ("4KiB", 4 << 10), ("1000", 1000), ("1 MiB", 1 << 20)])
    func parsesASize(text: String, bytes: Int64) throws {
        let configuration = try Self.load(ConfigErrorCase.minimal(route: "buffer_small_bodies: \(text)\n"))
        #expect(configuration.routes.first?.bufferSmallBodies == bytes)
    }

    @Test func is64KiBByDefault() throws {
        #expect(try Self.load(CheckCommandTests.minimal).routes.first?.bufferSmallBodies == 64 << 10)
    }

    static let errors: [ConfigErrorCase] = [
        ConfigErrorCase(
            name: "an ambiguous unit",
            yaml: ConfigErrorCase.minimal(route: "buffer_small_bodies: 64KB\n"),
            expected: [
                "10:26: error: 'buffer_small_bodies' of route 'r': '64KB': the unit 'KB' is ambiguous; write 64KiB or "
                    + "a byte count (64000)"
            ]),
        ConfigErrorCase(
            name: "not a size",
            yaml: ConfigErrorCase.minimal(route: "buffer_small_bodies: yes\n"),
            expected: [
                "10:26: error: 'buffer_small_bodies' of route 'r': 'yes' is not a size: expected a byte count or a "
                    + "number with B, KiB, MiB, GiB or TiB (e.g. 16KiB)"
            ]),
    ]

    @Test(arguments: errors)
    func refusesBadSizesAtTheirPosition(_ testCase: ConfigErrorCase) throws {
        let workspace = try ConfigWorkspace()
        defer { workspace.remove() }
        let result = try workspace.check(testCase.yaml)
        #expect(result.status == 1)
        #expect(CheckCommandTests.positioned(result, in: workspace) == testCase.expected)
    }
}
