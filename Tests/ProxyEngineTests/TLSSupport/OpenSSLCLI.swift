import Foundation

/// The `openssl` command-line tool, as an independent check of what partgate's OpenSSL calls produce.
enum OpenSSLCLI {
    /// The tool's path on `PATH`, if installed.
    static let path: String? = {
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return directories.map { "\($0)/openssl" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    /// Runs `openssl arguments…`; returns its exit status and stdout + stderr.
    static func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        guard let path else { throw CLIError.missing }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }

    enum CLIError: Error { case missing }
}
