import Foundation
import Testing

/// `partgate serve` raises its open-file soft limit to the hard limit at start and says so: every client and
/// upstream connection costs a descriptor, and a soft limit of 1,024 would cap it at a few hundred uploads.
@Suite("serve: open-file limit", .serialized)
struct ServeDescriptorLimitTests {
    @Test func softLimitIsRaisedToTheHardLimitAndLogged() throws {
        var limit = rlimit()
        try #require(getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0)
        let hard = UInt64(limit.rlim_max)
        try #require(hard > 256, "the hard limit is too low to test raising it")
        let fixture = try ServeFixture()
        defer { fixture.remove() }
        let yaml = ServeFixture.config(upstream: fixture.echoUpstream())
        let config = try fixture.write(Array(yaml.utf8), to: "partgate.yaml")
        // util-linux prlimit starts partgate with a soft limit of 256 (it execs, so the PID is partgate's).
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/prlimit")
        process.arguments = ["--nofile=256:\(hard)", PartgateBinary.url.path, "serve", "--config", config]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer {
            if process.isRunning {
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
            }
        }
        let reader = output.fileHandleForReading
        var lines: [[String: Any]] = []
        var pending = Data()
        let deadline = Date(timeIntervalSinceNow: 10)
        while !lines.contains(where: { $0["msg"] as? String == "listening" }), Date() < deadline {
            let chunk = reader.availableData
            if chunk.isEmpty { break }
            pending += chunk
            while let newline = pending.firstIndex(of: 10) {
                let line = pending[pending.startIndex..<newline]
                pending.removeSubrange(pending.startIndex...newline)
                if let object = try? JSONSerialization.jsonObject(with: line) as? [String: Any] { lines.append(object) }
            }
        }
        let logged = try #require(lines.first { $0["msg"] as? String == "file descriptor limit" }, "\(lines)")
        #expect(Self.number(logged["previous"]) == 256)
        #expect(Self.number(logged["soft"]) == hard)
        #expect(Self.number(logged["hard"]) == hard)
        let limits = try String(contentsOfFile: "/proc/\(process.processIdentifier)/limits", encoding: .utf8)
        let openFiles = try #require(limits.split(separator: "\n").first { $0.hasPrefix("Max open files") })
        let columns = openFiles.split(separator: " ", omittingEmptySubsequences: true)
        #expect(columns.count >= 5 && UInt64(columns[3]) == hard && UInt64(columns[4]) == hard, "\(openFiles)")
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }

    /// A number logged as a JSON number or as a string of digits.
    static func number(_ value: Any?) -> UInt64? {
        if let number = value as? NSNumber { return number.uint64Value }
        return (value as? String).flatMap { UInt64($0) }
    }
}
