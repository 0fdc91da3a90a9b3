#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The path of the input being replayed, for the crash handler (a C string; set before each input).
nonisolated(unsafe) private var currentInput: UnsafeMutablePointer<CChar>?

/// Replays corpus files through a fuzz target without libFuzzer (build C: a plain `swift build`).
///
/// Each argument is a file, or a directory whose regular files (not dot-files, not subdirectories) are
/// replayed in name order. An invariant violation traps; a handler then names the input on stderr and
/// the process dies of the signal, so the exit status is non-zero.
public enum ReplayDriver {
    /// Runs `target` on every input named by the command line, then exits.
    /// - Parameters:
    ///   - name: the target's name, for messages.
    ///   - target: the fuzz target's body.
    public static func main(name: String, _ target: (UnsafeRawBufferPointer) -> Void) -> Never {
        let arguments = CommandLine.arguments.dropFirst()
        guard !arguments.isEmpty, !arguments.contains(where: { $0.hasPrefix("-") }) else {
            printError("usage: \(name) FILE_OR_DIRECTORY...\n"
                + "Replays each input through the fuzz target (libFuzzer flags need the fuzzing build).")
            exit(2)
        }
        installCrashHandler()
        var count = 0
        for argument in arguments {
            guard let files = inputFiles(argument) else {
                printError("\(name): cannot read \(argument)")
                exit(1)
            }
            for path in files {
                guard let input = readFile(path) else {
                    printError("\(name): cannot read \(path)")
                    exit(1)
                }
                free(currentInput)
                currentInput = strdup(path)
                input.withUnsafeBytes { bytes in
                    // Exactly sized, like libFuzzer's copy, so that AddressSanitizer sees over-reads.
                    let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count, alignment: 1)
                    defer { copy.deallocate() }
                    copy.copyMemory(from: bytes)
                    target(UnsafeRawBufferPointer(copy))
                }
                count += 1
            }
        }
        print("\(name): replayed \(count) inputs: \(count) passed, 0 failed")
        exit(0)
    }

    private static func printError(_ message: String) {
        var line = message + "\n"
        line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
    }

    /// The files to replay for one argument, or nil if it cannot be read.
    private static func inputFiles(_ path: String) -> [String]? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        guard info.st_mode & S_IFMT == S_IFDIR else { return [path] }
        guard let directory = opendir(path) else { return nil }
        defer { closedir(directory) }
        var files: [String] = []
        while let entry = readdir(directory) {
            let entryName = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard !entryName.hasPrefix(".") else { continue }
            let full = path.hasSuffix("/") ? path + entryName : path + "/" + entryName
            var entryInfo = stat()
            if stat(full, &entryInfo) == 0, entryInfo.st_mode & S_IFMT == S_IFREG {
                files.append(full)
            }
        }
        return files.sorted()
    }

    private static func readFile(_ path: String) -> [UInt8]? {
        guard let file = fopen(path, "rb") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let read = buffer.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
            bytes += buffer[0..<read]
            if read < buffer.count { break }
        }
        return ferror(file) == 0 ? bytes : nil
    }

    /// On a trap or fault, names the input being replayed, then dies of the same signal.
    private static func installCrashHandler() {
        for number in [SIGILL, SIGTRAP, SIGABRT, SIGSEGV, SIGBUS, SIGFPE] {
            _ = signal(number) { number in
                // Async-signal-safe: static strings and write(2) only.
                let prefix: StaticString = "replay: crashed on input "
                _ = write(2, prefix.utf8Start, prefix.utf8CodeUnitCount)
                if let path = currentInput { _ = write(2, path, strlen(path)) }
                let newline: StaticString = "\n"
                _ = write(2, newline.utf8Start, newline.utf8CodeUnitCount)
                _ = signal(number, SIG_DFL)
                _ = raise(number)
            }
        }
    }
}
