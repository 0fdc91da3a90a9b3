extension RouteConfiguration {
    /// `forward:`: how the re-encoded body goes upstream.
    public enum ForwardMode: String, Sendable, Hashable, CaseIterable {
        /// As it is parsed, with `Transfer-Encoding: chunked` (the default).
        case stream
        /// Held (memory, then a temp file) until the whole request passed policy, then sent with
        /// `Content-Length`.
        case spool
    }

    /// `multipart:`: what happens to multipart/form-data bodies.
    public enum MultipartMode: String, Sendable, Hashable, CaseIterable {
        /// Parse, apply the policy, re-encode canonically (the default).
        case rewrite
        /// Relay the bytes untouched (no rules, no strictness checks).
        case passthrough
    }

    /// `default:`: what happens to a part no rule matched.
    public enum DefaultPartAction: String, Sendable, Hashable, CaseIterable {
        /// Forward it (the default).
        case pass
        /// Drop it from the forwarded body.
        case strip
        /// Refuse the request (403).
        case reject
    }

    /// `other_bodies:`: what happens to a body that is not multipart/form-data.
    public enum OtherBodiesAction: String, Sendable, Hashable, CaseIterable {
        /// Refuse with 415.
        case reject
        /// Relay unchanged.
        case pass
    }

    /// `unsafe_filenames:`: what happens to a filename with `/`, `\`, `..`, a drive letter or a control
    /// character.
    public enum UnsafeFilenameAction: String, Sendable, Hashable, CaseIterable {
        /// Replace the offending characters and keep the part (the default).
        case sanitize
        /// Refuse the request (400).
        case reject
        /// Forward the filename as it is.
        case allow
    }
}
