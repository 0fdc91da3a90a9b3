/// The file checks that run once the tree is read.
extension ConfigDecoder {
    /// Checks every queued certificate, key and CA file (``PEMFile``), reporting each unusable one at the
    /// line of its path. A file named twice for the same purpose is read once.
    func checkFiles() {
        var checked: [String: (code: ConfigError.Code, reason: String)?] = [:]
        for file in pemFiles {
            let key = "\(file.path)\u{0}\(file.kind)"
            let problem: (code: ConfigError.Code, reason: String)?
            if let cached = checked[key] {
                problem = cached
            } else {
                problem = Self.problem(with: file)
                checked[key] = .some(problem)
            }
            guard let problem else { continue }
            let shown = file.written == file.path ? "'\(file.written)'" : "'\(file.written)' (\(file.path))"
            let verb = problem.code == .unreadableFile ? "cannot read " : ""
            report(problem.code, at: file.node, "\(file.what): \(verb)\(shown): \(problem.reason)")
        }
    }

    /// Why `file` is unusable, or nil when it is fine.
    private static func problem(with file: PEMFile) -> (code: ConfigError.Code, reason: String)? {
        let bytes: [UInt8]
        do {
            bytes = try FileBytes.read(file.path, limit: PEMFile.maximumBytes)
        } catch {
            return (.unreadableFile, error.reason)
        }
        return PEMFile.problem(with: String(decoding: bytes, as: UTF8.self), kind: file.kind).map { (.invalidPEM, $0) }
    }
}
