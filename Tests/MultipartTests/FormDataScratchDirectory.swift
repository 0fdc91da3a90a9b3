import Foundation
import Testing

/// A fresh directory under the system temporary directory for one test; `remove()` deletes it and
/// everything in it (call it in a `defer`).
struct FormDataScratchDirectory {
    let url: URL

    init() {
        url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "partgate-formdata-test-\(UUID().uuidString)", isDirectory: true)
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            Issue.record("cannot create \(url.path): \(error)")
        }
    }

    /// The URL of `name` inside the directory (nothing is created).
    func file(_ name: String) -> URL {
        url.appendingPathComponent(name, isDirectory: false)
    }

    /// Writes `bytes` to `name` and returns its URL.
    @discardableResult
    func write(_ bytes: [UInt8], to name: String) -> URL {
        let target = file(name)
        #expect(FileManager.default.createFile(atPath: target.path, contents: Data(bytes)))
        return target
    }

    /// Writes `length` bytes of ``FormDataPattern`` to `name` in 1 MiB pieces and returns its URL.
    func writePattern(length: Int, to name: String) throws -> URL {
        let target = file(name)
        #expect(FileManager.default.createFile(atPath: target.path, contents: nil))
        let handle = try FileHandle(forWritingTo: target)
        defer { try? handle.close() }
        var offset = 0
        while offset < length {
            let count = min(1 << 20, length - offset)
            try handle.write(contentsOf: Data(FormDataPattern.bytes(at: Int64(offset), count: count)))
            offset += count
        }
        return target
    }

    /// The names of the entries in the directory.
    var entries: [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: url.path))?.sorted() ?? []
    }

    /// Deletes the directory, restoring permissions first so that removal cannot fail on them.
    func remove() {
        for name in entries {
            try? FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file(name).path)
        }
        try? FileManager.default.removeItem(at: url)
    }
}
