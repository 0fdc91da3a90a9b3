/// A request partgate answered itself with a problem (a refusal, an upstream failure): what the `refused` log
/// line says. The request's fields are nil when its head was not read whole.
public struct RefusalEvent: Sendable, Hashable {
    /// The status sent.
    public var status: Int
    /// The strict flag, limit or rule that fired (the problem's `flag`).
    public var flag: String
    /// The client's address.
    public var client: String
    /// The request id (the `request` of its audit lines).
    public var request: String?
    /// The route that took the request.
    public var route: String?
    /// The request's method.
    public var method: String?
    /// The request's target, as sent.
    public var target: String?
    /// The part the refusal concerns, for multipart problems.
    public var part: Int?

    /// - Parameters: one per property.
    public init(
        status: Int, flag: String, client: String, request: String? = nil, route: String? = nil,
        method: String? = nil, target: String? = nil, part: Int? = nil
    ) {
        self.status = status
        self.flag = flag
        self.client = client
        self.request = request
        self.route = route
        self.method = method
        self.target = target
        self.part = part
    }
}
