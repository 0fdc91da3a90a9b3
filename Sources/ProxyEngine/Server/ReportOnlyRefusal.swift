/// A refusal a `report_only: true` route did not enforce: the request was forwarded as on a route without
/// rules, and this says what an enforcing route would have answered (logged as `would_refuse`).
public struct ReportOnlyRefusal: Sendable, Equatable {
    /// The status the client would have got (415 for `other_bodies: reject`).
    public var status: Int
    /// The flag or rule that would have fired (`other_body`, `content_type_missing`).
    public var flag: String
    /// The route's name.
    public var route: String
    /// The request id (as in audit lines).
    public var request: String
    /// The request method.
    public var method: String
    /// The request target as received.
    public var target: String

    /// - Parameters: the fields, as documented on each property.
    public init(status: Int, flag: String, route: String, request: String, method: String, target: String) {
        self.status = status
        self.flag = flag
        self.route = route
        self.request = request
        self.method = method
        self.target = target
    }
}
