/// One configuration problem and where it is.
struct ConfigDiagnostic: Hashable, Sendable, CustomStringConvertible {
    /// What kind of problem.
    var code: ConfigError.Code
    /// The configuration file as named on the command line.
    var file: String
    /// 1-based line, or nil for a problem with the file as a whole (it cannot be read).
    var line: Int?
    /// 1-based column in Unicode scalars (as libyaml counts), or nil with ``line``.
    var column: Int?
    /// What is wrong, and where it helps, how to fix it.
    var reason: String
    /// A warning does not stop `check` or `serve` (an expired listener certificate); an error does.
    var isWarning = false

    /// `file:line:column: error: reason`, or `file: error: reason` without a position (`warning:` for a warning).
    var description: String {
        let kind = isWarning ? "warning" : "error"
        if let line, let column {
            return "\(file):\(line):\(column): \(kind): \(reason)"
        }
        return "\(file): \(kind): \(reason)"
    }

    /// Orders by position; problems without one come first.
    static func inFileOrder(_ left: ConfigDiagnostic, _ right: ConfigDiagnostic) -> Bool {
        (left.line ?? 0, left.column ?? 0) < (right.line ?? 0, right.column ?? 0)
    }
}
