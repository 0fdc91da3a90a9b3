/// The parts of a route configuration the policy stage enforces, in the form it uses them.
struct PolicySettings: Sendable {
    var rules: [Rule]
    var defaultAction: RouteConfiguration.DefaultPartAction
    /// Allowed `charset=` / `_charset_` values, lower case; nil when not checked.
    var charsets: Set<String>?
    var unsafeFilenames: RouteConfiguration.UnsafeFilenameAction
    /// Whether audit records sniff parts no rule sniffed (see ``PolicyStage/init(route:auditDetail:uuid:)``).
    var sniffsForAudit = true
    /// Whether the machine keeps a full ``PartAuditRecord`` per part, or only its ``PartDecision`` (names, types
    /// and digests are then never copied out of the part heads).
    var keepsRecords = true
    /// Whether a rule reads the filename's extension (`extension:` or `sniff.extension_must_match`); otherwise
    /// the facts leave it out.
    var usesFileExtension: Bool

    /// The route's policy as configured.
    init(route: RouteConfiguration) {
        rules = route.rules
        defaultAction = route.defaultAction
        charsets = route.allowedCharsets
        unsafeFilenames = route.unsafeFilenames
        usesFileExtension = route.rules.contains { $0.match.extension != nil || $0.sniff?.extensionMustMatch == true }
    }

    /// What a route forwards when it enforces nothing (what `report_only` forwards): no rules, `default: pass`,
    /// no charset check, and filenames sanitised unless the route allows them as they are (`reject` would
    /// refuse, so it forwards the sanitised name instead).
    static func baseline(of route: RouteConfiguration) -> PolicySettings {
        var settings = PolicySettings(route: route)
        settings.rules = []
        settings.defaultAction = .pass
        settings.charsets = nil
        settings.usesFileExtension = false
        if settings.unsafeFilenames == .reject { settings.unsafeFilenames = .sanitize }
        return settings
    }
}
