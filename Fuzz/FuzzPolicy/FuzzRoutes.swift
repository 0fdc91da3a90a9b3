import Policy

/// The routes the policy target runs a body through: between them every decision point (head, sniff window,
/// size, part end) with every action (pass, rename and set headers, strip, truncate, reject), report-only,
/// and each `unsafe_filenames` setting.
enum FuzzRoutes {
    static func names(_ patterns: String...) -> [Glob] { patterns.map { try! Glob($0) } }
    static func types(_ patterns: String...) -> [Glob] { patterns.map { try! Glob($0, caseInsensitive: true) } }
    static func template(_ text: String) -> NameTemplate { try! NameTemplate(text) }

    /// Images only, sniffed and validated, renamed; executables refused; text capped.
    static let gallery: [Rule] = [
        Rule(name: "no-executables", match: RuleMatch(sniffedType: types("application/x-*", "application/vnd.microsoft.portable-executable")),
             reject: Rule.Reject()),
        Rule(name: "images", match: RuleMatch(field: names("file*", "photo")),
             rename: Rule.Rename(field: template("f{index}"), filename: template("{uuid}{ext}")),
             setHeaders: [Rule.HeaderField(name: "X-Checked", value: "yes")],
             sniff: SniffRule(allow: types("image/*"), onMismatch: .reject, setContentType: true, validate: true),
             maxBytes: 4000),
        Rule(name: "notes", match: RuleMatch(hasFilename: false), maxBytes: 200, onExceed: .truncate),
    ]

    /// Strip by name and extension, strip on a type mismatch, strip what is too large; the rest refused.
    static let stripping: [Rule] = [
        Rule(name: "scripts", match: RuleMatch(extension: types("php", "phtml", "js")), strip: true),
        Rule(name: "docs", match: RuleMatch(field: names("doc*")),
             removeHeaders: ["Content-Type"],
             sniff: SniffRule(allow: types("application/pdf", "text/plain"), onMismatch: .strip, extensionMustMatch: true),
             maxBytes: 1000, onExceed: .strip),
        Rule(name: "fields", match: RuleMatch(hasFilename: false)),
    ]

    static let all: [RouteConfiguration] = [
        RouteConfiguration(name: "plain", upstream: "u"),
        RouteConfiguration(name: "gallery", upstream: "u", audit: true, rules: gallery),
        RouteConfiguration(name: "stripping", upstream: "u", defaultAction: .reject, unsafeFilenames: .reject,
                           rules: stripping),
        RouteConfiguration(name: "report-only", upstream: "u", reportOnly: true, audit: true, rules: gallery),
        RouteConfiguration(name: "allow-names", upstream: "u", defaultAction: .strip, charsets: ["utf-8"],
                           unsafeFilenames: .allow, rules: stripping),
    ]
}
