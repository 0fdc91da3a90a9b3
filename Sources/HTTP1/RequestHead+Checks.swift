extension RequestHead {
    /// Applies RFC 9112 §3.2 to Host and returns the authority to route on.
    ///
    /// An HTTP/1.1 request needs exactly one Host; an HTTP/1.0 request at most one; its value must
    /// be `uri-host [":" port]` (empty is allowed, without userinfo). For an absolute-form or
    /// authority-form target the target's authority wins (RFC 9112 §3.2.2) and is returned.
    /// - Returns: The authority, or nil for an HTTP/1.0 request without Host.
    /// - Throws: `missing_host`, `duplicate_host` or `invalid_host`.
    public func validatedHost() throws(HTTP1Error) -> String? {
        try validatedHostBytes().map { authority in
            switch authority {
            case .target(let text): String(text)
            case .field(let bytes): String(decoding: bytes, as: UTF8.self)
            }
        }
    }

    /// ``validatedHost()`` without the port (`[::1]:8080` is `::1`, `a.example:80` is `a.example`), the string made
    /// once: what routes match hosts against. Empty for an HTTP/1.0 request without Host.
    package func validatedHostWithoutPort() throws(HTTP1Error) -> String {
        switch try validatedHostBytes() {
        case nil: return ""
        case .target(let text): return Self.withoutPort(text.utf8)
        case .field(let bytes): return Self.withoutPort(bytes)
        }
    }

    /// The host part of `authority` (`uri-host [":" port]`): inside the brackets of an IP literal, else up to the
    /// first `:`.
    static func withoutPort<Bytes: Collection<UInt8>>(_ authority: Bytes) -> String {
        if authority.first == UInt8(ascii: "[") {
            let start = authority.index(after: authority.startIndex)
            let end = authority[start...].firstIndex(of: UInt8(ascii: "]")) ?? authority.endIndex
            return String(decoding: authority[start..<end], as: UTF8.self)
        }
        let end = authority.firstIndex(of: UInt8(ascii: ":")) ?? authority.endIndex
        return String(decoding: authority[..<end], as: UTF8.self)
    }

    /// Where the authority ``validatedHost()`` returns lies: the target's (which wins) or the Host field's.
    private enum Authority {
        case target(Substring)
        case field(ArraySlice<UInt8>)
    }

    private func validatedHostBytes() throws(HTTP1Error) -> Authority? {
        let hosts = fields.valueSlices(.host)
        guard hosts.count <= 1 else {
            throw HTTP1Error(.duplicateHost)
        }
        guard let host = hosts.first else {
            if version == .http1_1 {
                throw HTTP1Error(.missingHost)
            }
            return target.authority.map(Authority.target)
        }
        guard AuthoritySyntax.validate(host, allowEmptyHost: true, requirePort: false) == nil else {
            throw HTTP1Error(.invalidHost)
        }
        return target.authority.map(Authority.target) ?? .field(host)
    }

    /// The first Host value's bytes, nil without one (found when the fields were made: no walk over the names).
    package var firstHostValue: ArraySlice<UInt8>? { fields.valueSlices(.host).first }

    /// The Content-Type value, refusing more than one field line (CVE-2023-38199: a WAF and a
    /// backend may each read a different one).
    /// - Returns: The value, or nil when absent.
    /// - Throws: `duplicate_content_type`.
    public func singleContentType() throws(HTTP1Error) -> String? {
        try singleContentTypeBytes().map { String(decoding: $0, as: UTF8.self) }
    }

    /// ``singleContentType()`` as the value's bytes in the head (no string made).
    public func singleContentTypeBytes() throws(HTTP1Error) -> ArraySlice<UInt8>? {
        let values = fields.valueSlices(.contentType)
        guard values.count <= 1 else {
            throw HTTP1Error(.duplicateContentType)
        }
        return values.first
    }
}
