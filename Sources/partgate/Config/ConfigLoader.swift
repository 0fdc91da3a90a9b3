import Foundation
import Policy
import Yams

/// Reads a partgate configuration file (YAML, `version: 1`) into a validated ``ProxyConfiguration``.
///
/// Every problem is reported with the file, line and column of the offending key or value (libyaml's
/// positions: 1-based, columns counted in Unicode scalars). Unknown keys are errors everywhere. Relative
/// paths resolve against the configuration file's folder and come out absolute. Certificate, key and CA
/// files are opened and checked for a PEM block of the right kind, so `check` accepts nothing that `serve`
/// would then fail to start with for a missing or unreadable file.
///
/// Loading is compiler-like: all problems found in one pass are reported, sorted by position (see
/// ``ConfigError``).
enum ConfigLoader {
    /// The largest configuration file read.
    static let maximumBytes = 4 << 20

    /// Loads the configuration file at `path`.
    /// - Parameter path: the file, absolute or relative to the working directory; messages name it as given.
    /// - Returns: the validated configuration with absolute paths.
    /// - Throws: ``ConfigError`` with every problem found.
    static func load(path: String) throws(ConfigError) -> ProxyConfiguration {
        var warnings: [ConfigDiagnostic] = []
        return try load(path: path, warnings: &warnings)
    }

    /// ``load(path:)``, adding what is worth a warning but does not stop `serve` (an expired listener
    /// certificate) to `warnings`.
    static func load(path: String, warnings: inout [ConfigDiagnostic]) throws(ConfigError) -> ProxyConfiguration {
        let bytes: [UInt8]
        do {
            bytes = try FileBytes.read(path, limit: maximumBytes)
        } catch {
            throw ConfigError([
                ConfigDiagnostic(
                    code: .unreadableFile, file: path, line: nil, column: nil,
                    reason: "cannot read configuration: \(error.reason)")
            ])
        }
        let folder = ConfigPath.folder(ofFile: path, workingDirectory: FileManager.default.currentDirectoryPath)
        return try load(bytes: bytes, file: path, folder: folder, warnings: &warnings)
    }

    /// Loads configuration text that did not come from a file path (an embedded default, a test).
    /// - Parameters:
    ///   - yaml: the configuration text.
    ///   - file: the name messages show.
    ///   - folder: the absolute folder relative paths resolve against.
    /// - Throws: ``ConfigError`` with every problem found.
    static func load(yaml: String, file: String, folder: String) throws(ConfigError) -> ProxyConfiguration {
        var warnings: [ConfigDiagnostic] = []
        return try load(bytes: Array(yaml.utf8), file: file, folder: folder, warnings: &warnings)
    }

    private static func load(
        bytes: [UInt8], file: String, folder: String, warnings: inout [ConfigDiagnostic]
    ) throws(ConfigError) -> ProxyConfiguration {
        // A UTF-8 byte order mark (editors on Windows write one) is not content: positions count from after it.
        let bytes = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
        guard let text = String(validating: bytes, as: UTF8.self) else {
            let (line, column) = YAMLErrorTranslation.position(ofFirstInvalidUTF8In: bytes)
            throw ConfigError([
                ConfigDiagnostic(
                    code: .yamlSyntax, file: file, line: line, column: column,
                    reason: "the file is not valid UTF-8")
            ])
        }
        let parser: Parser
        let composed: Node?
        do {
            parser = try Parser(yaml: text)
            composed = try parser.singleRoot()
        } catch {
            throw ConfigError([YAMLErrorTranslation.diagnostic(for: error, file: file, text: text)])
        }
        let decoder = ConfigDecoder(file: file, folder: folder)
        // The parser owns the anchors (nodes refer to them weakly): it lives until the aliases are found.
        let root = withExtendedLifetime(parser) { () -> Node? in
            guard let composed else { return nil }
            let (root, aliases) = AliasUses.relocate(composed, text: text)
            decoder.aliases = aliases
            return root
        }
        let configuration = decoder.decodeRoot(root)
        if let configuration, decoder.diagnostics.isEmpty {
            decoder.checkTLSContexts(configuration)
            if decoder.diagnostics.isEmpty {
                warnings += decoder.warnings
                return configuration
            }
        }
        let diagnostics =
            decoder.diagnostics.isEmpty
            ? [
                ConfigDiagnostic(
                    code: .invalidValue, file: file, line: 1, column: 1,
                    reason: "the configuration could not be read (no specific problem was found)")
            ]
            : decoder.diagnostics
        throw ConfigError(stableSorted(diagnostics))
    }

    /// Sorts by position, keeping the discovery order of problems at the same position.
    private static func stableSorted(_ diagnostics: [ConfigDiagnostic]) -> [ConfigDiagnostic] {
        diagnostics.enumerated().sorted { left, right in
            if ConfigDiagnostic.inFileOrder(left.element, right.element) { return true }
            if ConfigDiagnostic.inFileOrder(right.element, left.element) { return false }
            return left.offset < right.offset
        }.map(\.element)
    }
}
