/// A parsed, validated response head: status line plus the ordered field lines.
public struct ResponseHead: Hashable, Sendable {
    /// HTTP/1.0 or HTTP/1.1.
    public var version: HTTPVersion
    /// The status code, 100...599.
    public var status: Int
    /// The reason phrase bytes (may be empty; may hold obs-text). A parsed head's are a slice of the bytes its
    /// fields are stored in (no array of their own).
    public var reasonBytes: ArraySlice<UInt8>
    /// The field lines in the order received.
    public var fields: HTTPFields

    /// Creates a head.
    /// - Parameters:
    ///   - version: The HTTP version.
    ///   - status: The status code (100...599).
    ///   - reason: The reason phrase.
    ///   - fields: The field lines.
    public init(version: HTTPVersion = .http1_1, status: Int, reason: String = "", fields: HTTPFields = HTTPFields()) {
        precondition((100...599).contains(status), "status must be 100...599")
        self.version = version
        self.status = status
        self.reasonBytes = ArraySlice(reason.utf8)
        self.fields = fields
    }

    /// The reason phrase decoded as UTF-8.
    public var reason: String { String(decoding: reasonBytes, as: UTF8.self) }

    /// Whether the status is 1xx.
    public var isInformational: Bool { status < 200 }

    /// The first value of field `name` (ASCII case-insensitive).
    /// - Parameter name: The field name.
    public subscript(name: String) -> String? { fields.first(named: name) }

    /// Every value of field `name`, in order.
    /// - Parameter name: The field name.
    public func values(_ name: String) -> [String] { fields.values(named: name) }
}
