import Foundation
import Yams

/// Turns the YAML node tree of a configuration file into a ``ProxyConfiguration``, collecting every problem
/// it finds as a ``ConfigDiagnostic`` with the node's line and column.
///
/// Each `decode…` function returns nil when its section has a problem (already reported) and keeps going
/// where it can, so one pass finds as many problems as possible. Certificate, key and CA paths are collected
/// on the way and checked once the tree is read (``checkFiles()``).
final class ConfigDecoder {
    /// The configuration file as named on the command line (for messages).
    let file: String
    /// The absolute folder relative paths resolve against.
    let folder: String
    /// The problems found so far.
    private(set) var diagnostics: [ConfigDiagnostic] = []
    /// What is worth saying but does not stop `serve` (``ConfigDiagnostic/isWarning``).
    private(set) var warnings: [ConfigDiagnostic] = []
    /// PEM files to check once the tree is read.
    var pemFiles: [PEMFile] = []
    /// The aliases of the tree being decoded (``AliasUses/relocate(_:text:)``): a problem in a value reached
    /// through one is reported at the alias.
    var aliases = AliasUses()

    /// - Parameters:
    ///   - file: the file name to show in messages.
    ///   - folder: the absolute folder relative paths resolve against.
    init(file: String, folder: String) {
        self.file = file
        self.folder = folder
    }

    /// Records a problem at `node`'s position (or at the top of the file when the node has none).
    func report(_ code: ConfigError.Code, at node: Node?, _ reason: String) {
        guard let mark = node?.mark else {
            diagnostics.append(ConfigDiagnostic(code: code, file: file, line: 1, column: 1, reason: reason))
            return
        }
        let (line, column, note) = aliases.resolve(mark)
        diagnostics.append(ConfigDiagnostic(code: code, file: file, line: line, column: column, reason: reason + note))
    }

    /// Records a warning at `node`'s position.
    func warn(at node: Node?, _ reason: String) {
        var diagnostic = ConfigDiagnostic(code: .invalidValue, file: file, line: 1, column: 1, reason: reason)
        if let mark = node?.mark {
            let (line, column, note) = aliases.resolve(mark)
            diagnostic = ConfigDiagnostic(
                code: .invalidValue, file: file, line: line, column: column, reason: reason + note)
        }
        diagnostic.isWarning = true
        warnings.append(diagnostic)
    }

    /// Records a problem at an explicit position.
    func report(_ code: ConfigError.Code, line: Int?, column: Int?, _ reason: String) {
        diagnostics.append(ConfigDiagnostic(code: code, file: file, line: line, column: column, reason: reason))
    }

    /// `line:column` of a node, for messages that refer to another place in the file.
    func position(of node: Node) -> String {
        node.mark.map { mark in
            let (line, column, _) = aliases.resolve(mark)
            return "\(line):\(column)"
        } ?? "?"
    }

    /// Whether `node` is an explicit null: an unquoted empty, `~` or `null` scalar.
    static func isNull(_ node: Node) -> Bool {
        guard case .scalar(let scalar) = node, scalar.style == .plain || scalar.style == .any else { return false }
        return ["", "~", "null", "Null", "NULL"].contains(scalar.string)
    }

    /// The `name:` of a mapping when it is a plain non-empty string, so messages about a route or rule can
    /// name it before its keys are checked.
    static func peekName(_ node: Node) -> String? {
        guard case .mapping = node, case .scalar(let scalar)? = node["name"], !scalar.string.isEmpty,
            !isNull(.scalar(scalar))
        else { return nil }
        return scalar.string
    }

    /// How messages name a node's YAML type.
    static func kind(of node: Node) -> String {
        switch node {
        case .mapping: return "a mapping"
        case .sequence: return "a list"
        case .alias: return "an alias"
        case .scalar(let scalar):
            if isNull(node) { return "nothing" }
            return scalar.style == .plain ? "'\(scalar.string)'" : "the string '\(scalar.string)'"
        }
    }

    /// Checks that `node` is a mapping, reports keys outside `keys` (with a suggestion when one is close) and
    /// non-string keys, and returns the known entries.
    /// - Parameters:
    ///   - node: the node that should be a mapping.
    ///   - context: how messages name the section, e.g. `route 'avatars'`.
    ///   - keys: the keys the section allows.
    func mapping(_ node: Node, _ context: String, keys: [String]) -> ConfigMapping? {
        guard case .mapping(let mapping) = node else {
            report(.wrongType, at: node, "\(context) must be a mapping, found \(Self.kind(of: node))")
            return nil
        }
        var entries: [(key: String, keyNode: Node, value: Node)] = []
        for (keyNode, value) in mapping {
            guard case .scalar(let scalar) = keyNode else {
                report(.wrongType, at: keyNode, "keys in \(context) must be names, found \(Self.kind(of: keyNode))")
                continue
            }
            let key = scalar.string
            if key == "<<" && scalar.style == .plain {
                report(.unknownKey, at: keyNode, "YAML merge keys ('<<') are not supported in \(context)")
                continue
            }
            guard keys.contains(key) else {
                let hint =
                    Suggestion.closest(to: key, in: keys).map { " (did you mean '\($0)'?)" }
                    ?? " (expected one of: \(keys.joined(separator: ", ")))"
                report(.unknownKey, at: keyNode, "unknown key '\(key)' in \(context)\(hint)")
                continue
            }
            entries.append((key, keyNode, value))
        }
        return ConfigMapping(node: node, context: context, entries: entries)
    }

    /// The value of a required key; reports it missing (at the mapping) when absent or null.
    func required(_ key: String, in mapping: ConfigMapping) -> Node? {
        if let value = mapping.value(key) { return value }
        report(.missingKey, at: mapping.node, "missing required key '\(key)' in \(mapping.context)")
        return nil
    }

    /// An absolute path for `path`: unchanged when absolute, else joined to ``folder`` (``ConfigPath``).
    func resolve(_ path: String) -> String {
        ConfigPath.join(folder, path)
    }
}
