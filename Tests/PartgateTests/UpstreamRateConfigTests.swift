import Foundation
import Policy
import Testing

@testable import partgate

/// `routes[].max_upstream_rate`: a size per second, parsed into the route; bad values named at their
/// line:column.
@Suite("Config: max_upstream_rate")
struct UpstreamRateConfigTests {
    static func load(_ yaml: String) throws -> ProxyConfiguration {
        let workspace = try ConfigWorkspace()
        defer { workspace.remove() }
        return try ConfigLoader.load(path: try workspace.write(yaml, to: "partgate.yaml"))
    }

    @Test(arguments: [("1MiB", Int64(1 << 20)), ("512KiB/s", 512 << 10), ("1048576", 1 << 20), ("2 GiB/s", 2 << 30)])
    func parsesASizePerSecond(text: String, bytes: Int64) throws {
        let configuration = try Self.load(ConfigErrorCase.minimal(route: "max_upstream_rate: \(text)\n"))
        #expect(configuration.routes.first?.maxUpstreamRate == bytes)
    }

    @Test func isUnthrottledByDefault() throws {
        #expect(try Self.load(CheckCommandTests.minimal).routes.first?.maxUpstreamRate == nil)
    }

    static let errors: [ConfigErrorCase] = [
        ConfigErrorCase(
            name: "a rate per minute",
            yaml: ConfigErrorCase.minimal(route: "max_upstream_rate: 1MiB/m\n"),
            expected: [
                "10:24: error: 'max_upstream_rate' of route 'r': '1MiB/m' is not a rate: write a size per second, "
                    + "e.g. 1MiB or 1MiB/s"
            ]),
        ConfigErrorCase(
            name: "an ambiguous unit",
            yaml: ConfigErrorCase.minimal(route: "max_upstream_rate: 1MB\n"),
            expected: [
                "10:24: error: 'max_upstream_rate' of route 'r': '1MB': the unit 'MB' is ambiguous; write 1MiB or a "
                    + "byte count (1000000)"
            ]),
        ConfigErrorCase(
            name: "below the minimum",
            yaml: ConfigErrorCase.minimal(route: "max_upstream_rate: 100\n"),
            expected: ["10:24: error: 'max_upstream_rate' of route 'r' must be at least 1KiB per second, found '100'"]),
    ]

    @Test(arguments: errors)
    func refusesBadRatesAtTheirPosition(_ testCase: ConfigErrorCase) throws {
        let workspace = try ConfigWorkspace()
        defer { workspace.remove() }
        let result = try workspace.check(testCase.yaml)
        #expect(result.status == 1)
        #expect(CheckCommandTests.positioned(result, in: workspace) == testCase.expected)
    }
}
