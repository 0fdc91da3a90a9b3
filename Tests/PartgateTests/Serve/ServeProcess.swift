import Foundation

/// A running `partgate serve --config FILE` (or `partgate demo`): its JSON log lines as they arrive on standard output, the
/// addresses it logged as `listening`, and a clean stop by PID with SIGTERM.
///
/// Every wait is bounded. ``kill()`` (SIGKILL by PID) is the last resort of a test's `defer`, so no process
/// outlives its test even when an expectation fails half-way.
final class ServeProcess: @unchecked Sendable {
    // @unchecked Sendable: `lines`, `stdoutClosed` and `exitStatus` are only touched while holding `condition`.
    private let process = Process()
    private let condition = NSCondition()
    private var lines: [String] = []
    private var stdoutClosed = false
    private var exitStatus: Int32?
    private let stderrPipe = Pipe()

    /// The child's process id.
    var pid: Int32 { process.processIdentifier }

    /// Starts `partgate serve --config configPath` and returns at once; see ``listeningPorts(count:timeout:)``
    /// for when it is ready.
    convenience init(configPath: String) throws {
        try self.init(arguments: ["serve", "--config", configPath])
    }

    /// Starts `partgate ARGUMENTS` (`serve` or `demo`) and returns at once; with `fileLimit`, under that many
    /// descriptors at most (soft and hard: `ulimit -n` in a shell that then execs partgate, so ``pid`` is its).
    init(arguments: [String], fileLimit: Int? = nil) throws {
        if let fileLimit {
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "ulimit -n \(fileLimit) && exec \"$0\" \"$@\"", PartgateBinary.url.path]
                + arguments
        } else {
            process.executableURL = PartgateBinary.url
            process.arguments = arguments
        }
        let stdout = Pipe()
        process.standardOutput = stdout
        process.standardError = stderrPipe
        process.standardInput = FileHandle.nullDevice
        process.terminationHandler = { [weak self] process in
            self?.exited(process.terminationStatus)
        }
        try process.run()
        let descriptor = stdout.fileHandleForReading.fileDescriptor
        Thread { [self] in readLines(descriptor) }.start()
    }

    private func exited(_ status: Int32) {
        condition.lock()
        exitStatus = status
        condition.broadcast()
        condition.unlock()
    }

    /// Reads standard output line by line until the child closes it.
    private func readLines(_ descriptor: Int32) {
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16384)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            pending += buffer[0..<count]
            var complete: [String] = []
            while let newline = pending.firstIndex(of: 10) {
                complete.append(String(decoding: pending[..<newline], as: UTF8.self))
                pending.removeSubrange(...newline)
            }
            condition.lock()
            lines += complete
            condition.broadcast()
            condition.unlock()
        }
        condition.lock()
        stdoutClosed = true
        condition.broadcast()
        condition.unlock()
    }

    /// Every standard output line so far.
    var output: [String] {
        condition.lock()
        defer { condition.unlock() }
        return lines
    }

    /// Every standard output line so far that is a JSON object.
    var logLines: [[String: Any]] { output.compactMap(Self.json) }

    static func json(_ line: String) -> [String: Any]? {
        try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
    }

    /// Waits for a log line (a JSON object) for which `matches` holds.
    /// - Returns: the line, or nil when the timeout passed or standard output closed first.
    func waitForLogLine(timeout: TimeInterval = 10, where matches: ([String: Any]) -> Bool) -> [String: Any]? {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        var checked = 0
        while true {
            while checked < lines.count {
                if let object = Self.json(lines[checked]), matches(object) { return object }
                checked += 1
            }
            if stdoutClosed || !condition.wait(until: deadline) { return nil }
        }
    }

    /// Waits for a log line whose `msg` is `message`.
    func waitForLog(_ message: String, timeout: TimeInterval = 10) -> [String: Any]? {
        waitForLogLine(timeout: timeout) { $0["msg"] as? String == message }
    }

    /// The ports of the first `count` `listening` lines, in configuration order; empty if they did not come.
    func listeningPorts(count: Int, timeout: TimeInterval = 10) -> [UInt16] {
        var seen = 0
        let last = waitForLogLine(timeout: timeout) { object in
            if object["msg"] as? String == "listening" { seen += 1 }
            return seen == count
        }
        guard last != nil else { return [] }
        return logLines.filter { $0["msg"] as? String == "listening" }.prefix(count).compactMap { line in
            (line["address"] as? String)?.split(separator: ":").last.flatMap { UInt16($0) }
        }
    }

    /// Sends `signal` to the child by PID.
    func send(_ signal: Int32) {
        _ = Foundation.kill(pid, signal)
    }

    /// Waits for the child to exit; its status, or nil when it is still running after `timeout`.
    func waitForExit(timeout: TimeInterval = 15) -> Int32? {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while exitStatus == nil, condition.wait(until: deadline) {}
        return exitStatus
    }

    /// SIGTERM, then the exit status (nil if it did not exit in time).
    func terminate(timeout: TimeInterval = 15) -> Int32? {
        send(SIGTERM)
        return waitForExit(timeout: timeout)
    }

    /// Standard error, once the child exited (empty before).
    var standardError: String {
        guard waitForExit(timeout: 0) != nil else { return "" }
        return String(decoding: stderrPipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    }

    /// SIGKILL by PID if the child is still running, and reap it.
    func kill() {
        guard waitForExit(timeout: 0) == nil else { return }
        send(SIGKILL)
        _ = waitForExit(timeout: 10)
    }
}
