import Multipart

/// One entry of `routes:`: which requests it takes, where they go and the policy their bodies pass.
///
/// Routes are tried in order and the first match wins (``ProxyConfiguration/route(host:path:method:)``).
public struct RouteConfiguration: Sendable, Hashable {
    /// The stored values, behind one reference: copying a route (per request: the route chosen, its policy,
    /// its exchange) retains one object instead of every string, array and set in it.
    struct Fields: Sendable, Hashable {
        var name: String
        var match: RouteMatch
        var upstream: String
        var forward: ForwardMode
        var multipart: MultipartMode
        var spoolMemory: Int64
        var reportOnly: Bool
        var audit: Bool
        var strictness: Strictness
        var defaultAction: DefaultPartAction
        var otherBodies: OtherBodiesAction
        var charsets: [String] {
            didSet { allowedCharsets = Set(charsets.map { $0.lowercased() }) }
        }
        var allowedCharsets: Set<String>
        var unsafeFilenames: UnsafeFilenameAction
        var limits: RequestLimits
        var rules: [Rule]
        var maxUpstreamRate: Int64? = nil
        var bufferSmallBodies: Int64 = RouteConfiguration.defaultBufferSmallBodies
        var reportOnlyNormalizesUnsafeFilename = false
    }

    final class Storage: @unchecked Sendable {
        // Mutated only through `unique()`, on a storage no other value shares.
        var fields: Fields
        init(_ fields: Fields) { self.fields = fields }
    }

    private var storage: Storage

    /// Whether `other` is this very value (one storage, not a copy that changed since): a stage made for one
    /// may be renewed for the other (``PolicyStage/renew()``). Cheaper than `==`, and false for equal routes
    /// built apart.
    public func isSameValue(as other: RouteConfiguration) -> Bool { storage === other.storage }

    /// The storage, copied first if another value shares it. Properties read in place (`_read`) and change in
    /// place (`_modify`), so `route.limits.bodyBytes` copies nothing.
    private mutating func unique() -> Storage {
        if !isKnownUniquelyReferenced(&storage) { storage = Storage(storage.fields) }
        return storage
    }

    /// Unique route name, carried into logs and metrics (`name:`, required).
    public var name: String {
        _read { yield storage.fields.name }
        _modify { yield &unique().fields.name }
    }
    /// Which requests the route takes (`match:`, default: every request).
    public var match: RouteMatch {
        _read { yield storage.fields.match }
        _modify { yield &unique().fields.match }
    }
    /// The name of the upstream to forward to, a key of ``ProxyConfiguration/upstreams`` (`upstream:`,
    /// required).
    public var upstream: String {
        _read { yield storage.fields.upstream }
        _modify { yield &unique().fields.upstream }
    }
    /// How the re-encoded body goes upstream (`forward:`, default `stream`).
    public var forward: ForwardMode {
        _read { yield storage.fields.forward }
        _modify { yield &unique().fields.forward }
    }
    /// Whether multipart bodies are rewritten or relayed as they are (`multipart:`, default `rewrite`).
    public var multipart: MultipartMode {
        _read { yield storage.fields.multipart }
        _modify { yield &unique().fields.multipart }
    }
    /// In `spool` mode, how many bytes of the re-encoded body stay in memory before it moves to a temp file
    /// (`spool_memory:`, default 8 MiB).
    public var spoolMemory: Int64 {
        _read { yield storage.fields.spoolMemory }
        _modify { yield &unique().fields.spoolMemory }
    }
    /// Evaluate and log every decision, but forward the request as if every part passed (`report_only:`,
    /// default false).
    public var reportOnly: Bool {
        _read { yield storage.fields.reportOnly }
        _modify { yield &unique().fields.reportOnly }
    }
    /// Log one audit record per part, with the SHA-256 of the forwarded bytes (`audit:`, default false:
    /// hashing costs about 0.5 s of CPU per GiB).
    public var audit: Bool {
        _read { yield storage.fields.audit }
        _modify { yield &unique().fields.audit }
    }
    /// The action for each strict flag (`strict:`, a map `flag: action`; default: every flag's default).
    public var strictness: Strictness {
        _read { yield storage.fields.strictness }
        _modify { yield &unique().fields.strictness }
    }
    /// What happens to parts no rule matched (`default:`, default `pass`).
    public var defaultAction: DefaultPartAction {
        _read { yield storage.fields.defaultAction }
        _modify { yield &unique().fields.defaultAction }
    }
    /// What happens to bodies that are not multipart/form-data (`other_bodies:`). Default: `reject` when the
    /// route has rules (a policy that only applies to multipart must not be bypassed by sending JSON), `pass`
    /// when it has none.
    public var otherBodies: OtherBodiesAction {
        _read { yield storage.fields.otherBodies }
        _modify { yield &unique().fields.otherBodies }
    }
    /// The `charset=` values allowed on text parts, lower case (`charsets:`, default `[utf-8, us-ascii]`).
    public var charsets: [String] {
        _read { yield storage.fields.charsets }
        _modify { yield &unique().fields.charsets }
    }
    /// ``charsets`` lowercased, as a set: made once per route, not for every request.
    public private(set) var allowedCharsets: Set<String> {
        _read { yield storage.fields.allowedCharsets }
        _modify { yield &unique().fields.allowedCharsets }
    }
    /// What happens to filenames with path separators, `..`, drive letters or control characters
    /// (`unsafe_filenames:`, default `sanitize`).
    public var unsafeFilenames: UnsafeFilenameAction {
        _read { yield storage.fields.unsafeFilenames }
        _modify { yield &unique().fields.unsafeFilenames }
    }
    /// The global limits with this route's `limits:` overrides applied.
    public var limits: RequestLimits {
        _read { yield storage.fields.limits }
        _modify { yield &unique().fields.limits }
    }
    /// True when the parser normalises the `unsafe_filename` strict flag only because the route is report-only:
    /// `unsafe_filenames: reject` with the flag not set in `strict:`. An enforcing route refuses such a filename
    /// (400) at the parser; a report-only one forwards it sanitised, as under `sanitize`, and its policy stage
    /// records the refusal as the part's would-be decision (``PolicyStage``).
    public var reportOnlyNormalizesUnsafeFilename: Bool { storage.fields.reportOnlyNormalizesUnsafeFilename }

    /// Whether the route decides anything about parts: it has rules, or parts no rule matched are not simply
    /// passed.
    public var hasPartPolicy: Bool { !rules.isEmpty || defaultAction != .pass }

    /// The ordered rules (`rules:`, default none).
    public var rules: [Rule] {
        _read { yield storage.fields.rules }
        _modify { yield &unique().fields.rules }
    }
    /// The most request bytes per second sent to the upstream on this route (`max_upstream_rate:`, a size
    /// per second such as `1MiB`; default nil: unthrottled). Head, body and chunk framing all count; the
    /// response is not throttled.
    public var maxUpstreamRate: Int64? {
        _read { yield storage.fields.maxUpstreamRate }
        _modify { yield &unique().fields.maxUpstreamRate }
    }

    /// In `stream` mode, the largest re-encoded body that is sent whole with a Content-Length when it arrived
    /// with its head (`buffer_small_bodies:`, a size; default 64 KiB; 0: always chunked). Such a body is already
    /// in memory: re-encoding it before the upstream is opened gives the backend a length (nginx's
    /// `proxy_request_buffering` does the same for every body) and spares it a refused request entirely.
    public var bufferSmallBodies: Int64 {
        _read { yield storage.fields.bufferSmallBodies }
        _modify { yield &unique().fields.bufferSmallBodies }
    }

    /// The charsets allowed when `charsets:` is not given.
    public static let defaultCharsets = ["utf-8", "us-ascii"]
    /// The default ``spoolMemory``: 8 MiB.
    public static let defaultSpoolMemory: Int64 = 8 << 20
    /// The default ``bufferSmallBodies``: 64 KiB.
    public static let defaultBufferSmallBodies: Int64 = 64 << 10

    /// - Parameters:
    ///   - name: unique route name.
    ///   - match: which requests it takes (default: all).
    ///   - upstream: the upstream's name.
    ///   - forward: `stream` (default) or `spool`.
    ///   - multipart: `rewrite` (default) or `passthrough`.
    ///   - spoolMemory: in-memory part of a spooled body (default 8 MiB).
    ///   - reportOnly: log instead of enforce (default false).
    ///   - audit: log an audit record per part (default false).
    ///   - strictness: strict flag actions (default: each flag's default; under `unsafeFilenames: .sanitize`,
    ///     `unsafe_filename` defaults to `normalize` unless set here).
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
        var strictness = strictness
        // DESIGN.md, Canonical output: under `sanitize`, a filename's `%22`, `%0D`, `%0A` are replaced, not refused.
        // A report-only route forwards `reject` as `sanitize` (docs/policy.md), so its parser replaces them too.
        let reportOnlyNormalizes = reportOnly && unsafeFilenames == .reject && !strictness.isSet(.unsafeFilename)
        if unsafeFilenames == .sanitize || reportOnlyNormalizes, !strictness.isSet(.unsafeFilename) {
            try! strictness.setAction(.normalize, for: .unsafeFilename)  // permitted for this flag
        }
        storage = Storage(
            Fields(
                name: name,
                match: match,
                upstream: upstream,
                forward: forward,
                multipart: multipart,
                spoolMemory: spoolMemory,
                reportOnly: reportOnly,
                audit: audit,
                strictness: strictness,
                defaultAction: defaultAction,
                otherBodies: otherBodies ?? (rules.isEmpty ? .pass : .reject),
                charsets: charsets,
                allowedCharsets: Set(charsets.map { $0.lowercased() }),
                unsafeFilenames: unsafeFilenames,
                limits: limits,
                rules: rules,
                maxUpstreamRate: nil,
                reportOnlyNormalizesUnsafeFilename: reportOnlyNormalizes))
    }

    public static func == (lhs: RouteConfiguration, rhs: RouteConfiguration) -> Bool {
        lhs.storage === rhs.storage || lhs.storage.fields == rhs.storage.fields
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(storage.fields)
    }
}
