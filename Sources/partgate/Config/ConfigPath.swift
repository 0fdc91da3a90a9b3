/// Where a configuration's relative paths point: the folder of the configuration file, joined as the kernel would
/// walk it. `..` is left for the kernel to resolve, not removed by text: `a/../b` only means `b` when `a` is not a
/// symbolic link, and a leading `..` must climb out of the folder (Foundation's `standardized` drops a leading `..`
/// of a relative URL, so `../certs/a.pem` used to resolve inside the folder).
enum ConfigPath {
    /// The absolute folder of the configuration file at `path` (absolute, or relative to `workingDirectory`).
    static func folder(ofFile path: String, workingDirectory: String) -> String {
        let absolute = join(workingDirectory, path)
        guard let slash = absolute.lastIndex(of: "/") else { return workingDirectory }
        return slash == absolute.startIndex ? "/" : String(absolute[..<slash])
    }

    /// `path` unchanged when absolute, else `path` under `folder`; `.` components are dropped, `..` kept.
    static func join(_ folder: String, _ path: String) -> String {
        if path.hasPrefix("/") { return path }
        var components = folder.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        for component in path.split(separator: "/", omittingEmptySubsequences: true) where component != "." {
            components.append(String(component))
        }
        return "/" + components.joined(separator: "/")
    }
}
