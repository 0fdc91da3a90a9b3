import Foundation
import Logging
import Testing

@testable import partgate

/// The access line written directly must be the line swift-log's JSON handler writes for the same fields.
@Suite("Access line")
struct AccessLineTests {
    /// Drops the `ts` member (the two lines are made at different instants).
    private func withoutTimestamp(_ line: String) -> String {
        line.replacing(/"ts":"[^"]*",/, with: "")
    }

    @Test(arguments: [
        ("POST", "/upload?x=1", 200, "bench"),
        ("GET", "/a\"b\\c\u{1}", 502, "route \"quoted\""),
        ("PUT", "/ünïcode", 413, ""),
    ])
    func isTheLineTheJSONHandlerWrites(method: String, target: String, status: Int, route: String) throws {
        let direct = String(
            decoding: JSONLogHandler.accessLineBytes(method: method, target: target, status: status, route: route),
            as: UTF8.self)
        let handler = JSONLogHandler.line(
            level: .info, message: "access",
            metadata: ["method": .string(method), "target": .string(target), "status": .stringConvertible(status),
                       "route": .string(route)])
        #expect(withoutTimestamp(direct) == withoutTimestamp(handler))
        #expect(direct.hasPrefix("{\"ts\":\""))
        #expect(direct.hasSuffix("}\n"))
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(direct.utf8)) as? [String: Any])
        #expect(object["target"] as? String == target)
        #expect(object["status"] as? Int == status)
    }
}

/// Above level info no access line is written, and the engine is told not to report one.
@Suite("Access reporting by log level")
struct AccessReportingTests {
    @Test(arguments: [(Logger.Level.debug, true), (.info, true), (.notice, false), (.warning, false), (.error, false)])
    func reportsAccessOnlyAtInfoOrBelow(level: Logger.Level, reports: Bool) {
        #expect(ServerLog(level: level, json: true).events.reportsAccess == reports)
    }
}
