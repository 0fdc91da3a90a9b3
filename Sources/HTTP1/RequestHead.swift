/// A parsed, validated request head: request line plus the ordered field lines.
public struct RequestHead: Hashable, Sendable {
    /// The method token, case-sensitive (`GET`, `POST`, ...).
    public var method: String
    /// The request-target.
    public var target: RequestTarget
    /// HTTP/1.0 or HTTP/1.1.
    public var version: HTTPVersion
    /// The field lines in the order received, names as sent, values trimmed of OWS.
    public var fields: HTTPFields

    /// Creates a head.
    /// - Parameters:
    ///   - method: A method token.
    ///   - target: The request-target.
    ///   - version: The HTTP version.
    ///   - fields: The field lines.
    public init(
        method: String,
        target: RequestTarget,
        version: HTTPVersion = .http1_1,
        fields: HTTPFields = HTTPFields()
    ) {
        precondition(HTTPField.isValidName(method), "method must be a token")
        self.method = method
        self.target = target
        self.version = version
        self.fields = fields
    }

    /// Whether this is a CONNECT request (a tunnel, which partgate does not provide).
    public var isConnect: Bool { method == "CONNECT" }

    /// The first value of field `name` (ASCII case-insensitive).
    /// - Parameter name: The field name.
    public subscript(name: String) -> String? { fields.first(named: name) }

    /// Every value of field `name`, in order.
    /// - Parameter name: The field name.
    public func values(_ name: String) -> [String] { fields.values(named: name) }

    /// Whether field `name` is present.
    /// - Parameter name: The field name.
    public func contains(_ name: String) -> Bool { fields.contains(named: name) }
}

extension RequestTarget {
    /// Parses a request-target for `method`, with the same rules as the request parser.
    /// - Parameters:
    ///   - string: The target, for example `/upload?x=1`.
    ///   - method: The method it will be sent with.
    /// - Throws: `invalid_target`, `invalid_target_form` or `userinfo_in_target`.
    public init(_ string: String, method: String = "GET") throws(HTTP1Error) {
        let bytes = Array(string.utf8)
        if let bad = bytes.firstIndex(where: { $0 <= 0x20 || $0 >= 0x7F }) {
            throw HTTP1Error(.invalidTarget, offset: bad)
        }
        guard !bytes.isEmpty else {
            throw HTTP1Error(.invalidTarget, offset: 0)
        }
        self = try bytes.withUnsafeBufferPointer { bytes throws(HTTP1Error) in
            try RequestTarget.parse(bytes, method: method, offset: 0)
        }
    }
}
