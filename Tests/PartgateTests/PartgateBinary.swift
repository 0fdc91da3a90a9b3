import Foundation

/// Runs the real `partgate` binary built next to the test bundle.
enum PartgateBinary {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
        /// Standard output as bytes (``stdout`` replaces invalid UTF-8).
        var stdoutBytes: [UInt8] = []

        /// The stdout lines parsed as JSON objects.
        var jsonLines: [[String: Any]] {
            stdout.split(separator: "\n").compactMap {
                try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }
        }
    }

    /// The directory holding the build products (the test bundle's directory).
    static var productsDirectory: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    }

    static var url: URL { productsDirectory.appendingPathComponent("partgate") }

    /// The repository root (Tests/PartgateTests/<file> → up two levels).
    static func repositoryRoot(_ file: String = #filePath) -> URL {
        URL(fileURLWithPath: file).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    /// Runs partgate with `arguments` (in `currentDirectory` when given); `input` writes to its standard input from
    /// another thread.
    static func run(
        _ arguments: [String], currentDirectory: String? = nil, input: (@Sendable (FileHandle) -> Void)? = nil
    ) throws -> Result {
        guard let input else { return try run(arguments, currentDirectory: currentDirectory, inputWithPID: nil) }
        let withPID: @Sendable (FileHandle, Int32) -> Void = { handle, _ in input(handle) }
        return try run(arguments, currentDirectory: currentDirectory, inputWithPID: withPID)
    }

    /// Like ``run(_:currentDirectory:input:)``; the input closure also gets the child's pid (to read
    /// /proc/PID/status).
    static func run(
        _ arguments: [String], currentDirectory: String? = nil,
        inputWithPID input: (@Sendable (FileHandle, Int32) -> Void)?
    ) throws -> Result {
        let process = Process()
        process.executableURL = url
        process.arguments = arguments
        if let currentDirectory { process.currentDirectoryURL = URL(fileURLWithPath: currentDirectory) }
        let stdout = Pipe()
        let stderr = Pipe()
        let stdin = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        process.standardInput = input == nil ? FileHandle.nullDevice : stdin
        try process.run()
        let pid = process.processIdentifier
        let writer = input.map { feed in
            Thread {
                feed(stdin.fileHandleForWriting, pid)
                try? stdin.fileHandleForWriting.close()
            }
        }
        writer?.start()
        let outData = stdout.fileHandleForReading.readDataToEndOfFile()
        let errData = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errData, as: UTF8.self), stdoutBytes: [UInt8](outData))
    }

    /// Peak resident memory (VmHWM) of a running process, in KiB.
    static func peakMemoryKiB(_ pid: Int32) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            return Int(line.split(separator: " ", omittingEmptySubsequences: true)[1])
        }
        return nil
    }

    /// SHA-256 of `bytes` computed by coreutils' sha256sum (independent of partgate's OpenSSL digest).
    static func sha256(_ bytes: [UInt8]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        try input.fileHandleForWriting.write(contentsOf: Data(bytes))
        try input.fileHandleForWriting.close()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return String(text.prefix(64))
    }
}
