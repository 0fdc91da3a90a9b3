/// The conditions of a rule (`rules[].match:`); a part matches when every condition that is set holds.
///
/// Each list condition holds when any of its globs matches. An empty match (no key set) matches every part.
/// Field names and filenames are matched case-sensitively; types and extensions case-insensitively.
/// The semantics of each condition on a live part belong to the policy stage; this is the data.
public struct RuleMatch: Sendable, Hashable {
    /// Globs for the part's field name (`field:`).
    public var field: [Glob]?
    /// Globs for the part's filename as sent (`filename:`).
    public var filename: [Glob]?
    /// Whether the part must (true) or must not (false) carry a filename (`has_filename:`).
    public var hasFilename: Bool?
    /// Globs for the declared Content-Type without parameters, e.g. `image/*` (`declared_type:`).
    public var declaredType: [Glob]?
    /// Globs for the type sniffed from the part's first bytes (`sniffed_type:`).
    public var sniffedType: [Glob]?
    /// Globs for the filename's extension: the text after its last dot, without the dot, matched
    /// case-insensitively (`extension:`; a leading dot written in the configuration is dropped).
    public var `extension`: [Glob]?

    /// - Parameters: each nil (the default) leaves that condition out.
    public init(
        field: [Glob]? = nil,
        filename: [Glob]? = nil,
        hasFilename: Bool? = nil,
        declaredType: [Glob]? = nil,
        sniffedType: [Glob]? = nil,
        extension: [Glob]? = nil
    ) {
        self.field = field
        self.filename = filename
        self.hasFilename = hasFilename
        self.declaredType = declaredType
        self.sniffedType = sniffedType
        self.extension = `extension`
    }

    /// Whether no condition is set (the rule applies to every part).
    public var matchesEveryPart: Bool {
        field == nil && filename == nil && hasFilename == nil && declaredType == nil && sniffedType == nil
            && `extension` == nil
    }

    /// Whether the rule needs the sniffed type before it can decide (so the stage must hold the sniff window).
    public var needsSniffedType: Bool { sniffedType != nil }
}
