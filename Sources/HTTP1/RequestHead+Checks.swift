extension RequestHead {
    /// Applies RFC 9112 §3.2 to Host and returns the authority to route on.
    ///
    /// An HTTP/1.1 request needs exactly one Host; an HTTP/1.0 request at most one; its value must
    /// be `uri-host [":" port]` (empty is allowed, without userinfo). For an absolute-form or
    /// authority-form target the target's authority wins (RFC 9112 §3.2.2) and is returned.
    /// - Returns: The authority, or nil for an HTTP/1.0 request without Host.
    /// - Throws: `missing_host`, `duplicate_host` or `invalid_host`.
    public func validatedHost() throws(HTTP1Error) -> String? {
        let hosts = fields.valueSlices(.host)
        guard hosts.count <= 1 else {
            throw HTTP1Error(.duplicateHost)
        }
        guard let host = hosts.first else {
            if version == .http1_1 {
                throw HTTP1Error(.missingHost)
            }
            return target.authority.map(String.init)
        }
        guard AuthoritySyntax.validate(host, allowEmptyHost: true, requirePort: false) == nil else {
            throw HTTP1Error(.invalidHost)
        }
        return target.authority.map(String.init) ?? String(decoding: host, as: UTF8.self)
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
