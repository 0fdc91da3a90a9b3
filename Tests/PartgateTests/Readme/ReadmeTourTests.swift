import Foundation
import Testing

/// README.md's five-minute tour, run as a reader would: every command of its `sh tour` blocks in bash, from the
/// repository root, against a real `partgate demo` started here, with this build's `partgate` first on `PATH`.
///
/// Two substitutions only, so that tests can run side by side: the demo's default address 127.0.0.1:8080 becomes
/// the port the demo bound, and `/tmp/partgate-` files go to a private folder.
@Suite("README tour", .serialized)
struct ReadmeTourTests {
    static var readme: String {
        get throws {
            try String(contentsOf: TourCommand.repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
        }
    }

    @Test func extractsTheTour() throws {
        let commands = TourCommand.parse(markdown: try Self.readme)
        #expect(commands.count >= 6, "README.md's sh tour blocks: \(commands)")
        #expect(commands.contains { $0.command.hasPrefix("curl ") && $0.command.contains("127.0.0.1:8080") })
        #expect(commands.contains { $0.command.hasPrefix("partgate inspect ") })
        #expect(commands.contains { $0.command.hasPrefix("partgate rewrite ") })
        #expect(
            commands.allSatisfy {
                !$0.prints.isEmpty || $0.command.hasPrefix("echo ") || $0.command.hasPrefix("printf ")
            },
            "every command but the file-making ones states what it prints")
    }

    @Test func parsesExpectationsAndSkipsOtherBlocks() {
        let markdown = """
            ```sh
            rm -rf /
            ```
            ```sh tour
            # a comment
            partgate check --config x.yaml
            #> x.yaml: ok
            #> exit 1
            ```
            """
        let commands = TourCommand.parse(markdown: markdown)
        #expect(commands.count == 1)
        #expect(commands.first?.command == "partgate check --config x.yaml")
        #expect(commands.first?.prints == ["x.yaml: ok"])
        #expect(commands.first?.exitStatus == 1)
    }

    @Test func tourCommandsDoWhatTheReadmeSays() throws {
        let commands = TourCommand.parse(markdown: try Self.readme)
        try #require(!commands.isEmpty)
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
            "partgate-tour-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }

        let demo = try ServeProcess(arguments: ["demo", "--listen", "127.0.0.1:0"])
        defer { demo.kill() }
        let port = try #require(demo.listeningPorts(count: 1).first, "demo output: \(demo.output)")
        for tour in commands {
            let command = tour.command
                .replacingOccurrences(of: "127.0.0.1:8080", with: "127.0.0.1:\(port)")
                .replacingOccurrences(of: "/tmp/partgate-", with: scratch.path + "/partgate-")
            let result = try Self.bash(command)
            #expect(
                result.status == tour.exitStatus,
                "`\(command)` exited \(result.status), README says \(tour.exitStatus); stderr: \(result.stderr)")
            for text in tour.prints {
                #expect(
                    result.stdout.contains(text), "`\(command)` did not print \(text); it printed: \(result.stdout)")
            }
        }
        demo.expectCleanStop()
    }

    /// Runs `command` with `bash -c` from the repository root, this build's products first on `PATH`, for at
    /// most 60 seconds (then SIGKILL).
    static func bash(_ command: String) throws -> (status: Int32, stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", command]
        process.currentDirectoryURL = TourCommand.repositoryRoot
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = PartgateBinary.productsDirectory.path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        process.environment = environment
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("partgate-tour-\(UUID().uuidString)")
        try #require(FileManager.default.createFile(atPath: output.path + ".out", contents: nil))
        try #require(FileManager.default.createFile(atPath: output.path + ".err", contents: nil))
        defer {
            try? FileManager.default.removeItem(atPath: output.path + ".out")
            try? FileManager.default.removeItem(atPath: output.path + ".err")
        }
        let stdout = try FileHandle(forWritingTo: URL(fileURLWithPath: output.path + ".out"))
        let stderr = try FileHandle(forWritingTo: URL(fileURLWithPath: output.path + ".err"))
        process.standardOutput = stdout
        process.standardError = stderr
        process.standardInput = FileHandle.nullDevice
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
        if exited.wait(timeout: .now() + 60) == .timedOut {
            _ = kill(process.processIdentifier, SIGKILL)
            exited.wait()
        }
        try stdout.close()
        try stderr.close()
        // rewrite prints body bytes (the example's PNG): decode leniently.
        let out = String(decoding: try Data(contentsOf: URL(fileURLWithPath: output.path + ".out")), as: UTF8.self)
        let err = String(decoding: try Data(contentsOf: URL(fileURLWithPath: output.path + ".err")), as: UTF8.self)
        return (process.terminationStatus, out, err)
    }
}
