import Foundation

/// A fresh spool directory for one test, and what the process holds open in it.
///
/// Spool files are unlinked as soon as they are created, so the directory itself stays empty; an open spool
/// shows up only as a descriptor of this process whose link reads `<directory>/<name> (deleted)`.
final class SpoolDirectory {
    private let directory: TemporaryDirectory
    /// The canonical path (as /proc/self/fd links spell it).
    let path: String

    init() throws {
        directory = try TemporaryDirectory()
        guard let resolved = realpath(directory.path, nil) else { throw POSIXError(.ENOENT) }
        path = String(cString: resolved)
        free(resolved)
    }

    /// Names in the directory.
    var entries: [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
    }

    /// Descriptors of this process open on deleted files of the directory.
    var openDeletedFiles: [String] { Self.openDeletedFiles(in: path) }

    /// Descriptors of this process open on deleted files of the directory at `path` (canonical).
    static func openDeletedFiles(in path: String) -> [String] {
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return descriptors.compactMap { name in
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + name),
                target.hasPrefix(path + "/"), target.hasSuffix(" (deleted)")
            else { return nil }
            return target
        }
    }

    /// Nothing of a spool is left: no name in the directory and no descriptor on a deleted file in it.
    var isClean: Bool { entries.isEmpty && openDeletedFiles.isEmpty }

    /// Waits up to `seconds` for `condition`; returns whether it held.
    func wait(seconds: Double = 10, until condition: (SpoolDirectory) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while !condition(self) {
            if Date() > deadline { return false }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return true
    }
}
