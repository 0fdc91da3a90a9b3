import Foundation

/// Runs `/usr/bin/curl` as a real client: `-sS` and a `--max-time` bound are always added.
enum Curl {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String

        /// Standard output parsed as one JSON object per line (a transfer per line with several URLs).
        var jsonObjects: [[String: Any]] { stdout.split(separator: "\n").compactMap { ServeProcess.json(String($0)) } }
    }

    static let url = URL(fileURLWithPath: "/usr/bin/curl")

    static func run(_ arguments: [String], maxTime: Int = 20) throws -> Result {
        let process = Process()
        process.executableURL = url
        process.arguments = ["-sS", "--max-time", String(maxTime)] + arguments
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Both pipes are read at once, so neither can fill up and stall curl.
        let errorText = ErrorText()
        let reader = Thread { errorText.set(stderr.fileHandleForReading.readDataToEndOfFile()) }
        reader.start()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: String(decoding: output, as: UTF8.self),
                      stderr: errorText.wait())
    }

    /// Standard error handed from the reading thread.
    private final class ErrorText: @unchecked Sendable {
        // @unchecked Sendable: `data` is only touched while holding `condition`.
        private let condition = NSCondition()
        private var data: Data?

        func set(_ value: Data) {
            condition.lock()
            data = value
            condition.broadcast()
            condition.unlock()
        }

        func wait() -> String {
            condition.lock()
            defer { condition.unlock() }
            while data == nil { condition.wait() }
            return String(decoding: data!, as: UTF8.self)
        }
    }
}
