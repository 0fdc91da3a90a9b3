import Multipart

/// One entry of `routes:`: which requests it takes, where they go and the policy their bodies pass.
///
/// Routes are tried in order and the first match wins (``ProxyConfiguration/route(host:path:method:)``).
public struct RouteConfiguration: Sendable, Hashable {
    /// Unique route name, carried into logs and metrics (`name:`, required).
    public var name: String
    /// Which requests the route takes (`match:`, default: every request).
    public var match: RouteMatch
    /// The name of the upstream to forward to, a key of ``ProxyConfiguration/upstreams`` (`upstream:`,
    /// required).
    public var upstream: String
    /// How the re-encoded body goes upstream (`forward:`, default `stream`).
    public var forward: ForwardMode
    /// Whether multipart bodies are rewritten or relayed as they are (`multipart:`, default `rewrite`).
    public var multipart: MultipartMode
    /// In `spool` mode, how many bytes of the re-encoded body stay in memory before it moves to a temp file
    /// (`spool_memory:`, default 8 MiB).
    public var spoolMemory: Int64
    /// Evaluate and log every decision, but forward the request as if every part passed (`report_only:`,
    /// default false).
    public var reportOnly: Bool
    /// Log one audit record per part, with the SHA-256 of the forwarded bytes (`audit:`, default false:
    /// hashing costs about 0.5 s of CPU per GiB).
    public var audit: Bool
    /// The action for each strict flag (`strict:`, a map `flag: action`; default: every flag's default).
    public var strictness: Strictness
    /// What happens to parts no rule matched (`default:`, default `pass`).
    public var defaultAction: DefaultPartAction
    /// What happens to bodies that are not multipart/form-data (`other_bodies:`). Default: `reject` when the
    /// route has rules (a policy that only applies to multipart must not be bypassed by sending JSON), `pass`
    /// when it has none.
    public var otherBodies: OtherBodiesAction
    /// The `charset=` values allowed on text parts, lower case (`charsets:`, default `[utf-8, us-ascii]`).
    public var charsets: [String] {
        didSet { allowedCharsets = Set(charsets.map { $0.lowercased() }) }
    }
    /// ``charsets`` lowercased, as a set: made once per route, not for every request.
    public private(set) var allowedCharsets: Set<String>
    /// What happens to filenames with path separators, `..`, drive letters or control characters
    /// (`unsafe_filenames:`, default `sanitize`).
    public var unsafeFilenames: UnsafeFilenameAction
    /// The global limits with this route's `limits:` overrides applied.
    public var limits: RequestLimits
    /// The ordered rules (`rules:`, default none).
    public var rules: [Rule]
    /// The most request bytes per second sent to the upstream on this route (`max_upstream_rate:`, a size
    /// per second such as `1MiB`; default nil: unthrottled). Head, body and chunk framing all count; the
    /// response is not throttled.
    public var maxUpstreamRate: Int64? = nil

    /// The charsets allowed when `charsets:` is not given.
    public static let defaultCharsets = ["utf-8", "us-ascii"]
    /// The default ``spoolMemory``: 8 MiB.
    public static let defaultSpoolMemory: Int64 = 8 << 20

    /// - Parameters:
    ///   - name: unique route name.
    ///   - match: which requests it takes (default: all).
    ///   - upstream: the upstream's name.
    ///   - forward: `stream` (default) or `spool`.
    ///   - multipart: `rewrite` (default) or `passthrough`.
    ///   - spoolMemory: in-memory part of a spooled body (default 8 MiB).
    ///   - reportOnly: log instead of enforce (default false).
    ///   - audit: log an audit record per part (default false).
    ///   - strictness: strict flag actions (default: each flag's default).
    ///   - defaultAction: for unmatched parts (default `pass`).
    ///   - otherBodies: for non-multipart bodies (default nil: `reject` with rules, `pass` without).
    ///   - charsets: allowed part charsets (default `[utf-8, us-ascii]`).
    ///   - unsafeFilenames: `sanitize` (default), `reject` or `allow`.
    ///   - limits: effective limits (default: the global defaults).
    ///   - rules: ordered rules (default none).
    public init(
        name: String,
        match: RouteMatch = RouteMatch(),
        upstream: String,
        forward: ForwardMode = .stream,
        multipart: MultipartMode = .rewrite,
        spoolMemory: Int64 = Self.defaultSpoolMemory,
        reportOnly: Bool = false,
        audit: Bool = false,
        strictness: Strictness = Strictness(),
        defaultAction: DefaultPartAction = .pass,
        otherBodies: OtherBodiesAction? = nil,
        charsets: [String] = Self.defaultCharsets,
        unsafeFilenames: UnsafeFilenameAction = .sanitize,
        limits: RequestLimits = RequestLimits(),
        rules: [Rule] = []
    ) {
        self.name = name
        self.match = match
        self.upstream = upstream
        self.forward = forward
        self.multipart = multipart
        self.spoolMemory = spoolMemory
        self.reportOnly = reportOnly
        self.audit = audit
        self.strictness = strictness
        self.defaultAction = defaultAction
        self.otherBodies = otherBodies ?? (rules.isEmpty ? .pass : .reject)
        self.charsets = charsets
        self.allowedCharsets = Set(charsets.map { $0.lowercased() })
        self.unsafeFilenames = unsafeFilenames
        self.limits = limits
        self.rules = rules
    }
}
