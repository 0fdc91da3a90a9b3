/// One entry of a route's `rules:`: a match and the actions taken on the parts it matches.
///
/// Rules run in order. `strip` and `reject` end a part's evaluation, so the loader refuses a rule that
/// combines either with another action. A rule with a match and no action marks the part as allowed, which
/// makes allow-lists natural under `default: reject`.
public struct Rule: Sendable, Hashable {
    /// Unique name within the route, carried into the audit log and metrics (`name:`, required).
    public var name: String
    /// Which parts the rule applies to (`match:`, default: every part).
    public var match: RuleMatch
    /// Drop the part (`strip: true`; default false).
    public var strip: Bool
    /// New field name and/or filename (`rename:`; default nil).
    public var rename: Rename?
    /// Part headers to set, in order (`set_headers: {Name: value}`; default none).
    public var setHeaders: [HeaderField]
    /// Part header names to remove, case-insensitive (`remove_headers: [Name]`; default none).
    public var removeHeaders: [String]
    /// Type check on the part's bytes (`sniff:`; default nil).
    public var sniff: SniffRule?
    /// Largest part body in bytes (`max_bytes:`; default nil: only the route's limits apply).
    public var maxBytes: Int64?
    /// What happens beyond ``maxBytes`` (`on_exceed:`, default `reject`).
    public var onExceed: ExceedAction
    /// Refuse the request when a part matches (`reject: true` or `reject: { status: 4xx }`; default nil).
    public var reject: Reject?

    /// - Parameters:
    ///   - name: unique name within the route.
    ///   - match: the conditions (default: every part).
    ///   - strip: drop matching parts (default false).
    ///   - rename: templates for a new field name and/or filename (default nil).
    ///   - setHeaders: headers to set (default none).
    ///   - removeHeaders: headers to remove (default none).
    ///   - sniff: type check (default nil).
    ///   - maxBytes: size cap (default nil).
    ///   - onExceed: action beyond the cap (default `reject`).
    ///   - reject: refuse the request on a match (default nil).
    public init(
        name: String,
        match: RuleMatch = RuleMatch(),
        strip: Bool = false,
        rename: Rename? = nil,
        setHeaders: [HeaderField] = [],
        removeHeaders: [String] = [],
        sniff: SniffRule? = nil,
        maxBytes: Int64? = nil,
        onExceed: ExceedAction = .reject,
        reject: Reject? = nil
    ) {
        self.name = name
        self.match = match
        self.strip = strip
        self.rename = rename
        self.setHeaders = setHeaders
        self.removeHeaders = removeHeaders
        self.sniff = sniff
        self.maxBytes = maxBytes
        self.onExceed = onExceed
        self.reject = reject
    }

    /// The names of the actions this rule sets, as written in the configuration (for messages).
    public var actionKeys: [String] {
        var keys: [String] = []
        if strip { keys.append("strip") }
        if rename != nil { keys.append("rename") }
        if !setHeaders.isEmpty { keys.append("set_headers") }
        if !removeHeaders.isEmpty { keys.append("remove_headers") }
        if sniff != nil { keys.append("sniff") }
        if maxBytes != nil { keys.append("max_bytes") }
        if reject != nil { keys.append("reject") }
        return keys
    }
}
