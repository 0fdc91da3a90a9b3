/// Which request methods the request head parser accepts.
///
/// Every method must be a token (RFC 9110 §9.1). By default the parser also requires a method from
/// ``registeredMethods``: the set llhttp (and so Node.js and swift-nio backends) knows, so partgate
/// never forwards a method its backends' parsers would refuse. Others get `unknown_method` (501).
public enum MethodPolicy: Hashable, Sendable {
    /// Only ``registeredMethods`` (case-sensitive).
    case registered
    /// Any token.
    case anyToken

    /// llhttp's HTTP method list (RFC 9110, WebDAV, CalDAV, UPnP, PATCH, PURGE, SOURCE, QUERY).
    /// RTSP methods and the HTTP/2 preface `PRI` are not in it.
    public static let registeredMethods: Set<String> = [
        "DELETE", "GET", "HEAD", "POST", "PUT", "CONNECT", "OPTIONS", "TRACE",
        "COPY", "LOCK", "MKCOL", "MOVE", "PROPFIND", "PROPPATCH", "SEARCH", "UNLOCK",
        "BIND", "REBIND", "UNBIND", "ACL", "REPORT", "MKACTIVITY", "CHECKOUT", "MERGE",
        "M-SEARCH", "NOTIFY", "SUBSCRIBE", "UNSUBSCRIBE", "PATCH", "PURGE", "MKCALENDAR",
        "LINK", "UNLINK", "SOURCE", "QUERY",
    ]

    /// Whether `method` (already known to be a token) is accepted.
    /// - Parameter method: A method token.
    public func accepts(_ method: String) -> Bool {
        switch self {
        case .registered:
            // The methods nearly every request has, compared as (small) strings before the set is hashed.
            switch method {
            case "POST", "GET", "PUT", "HEAD", "PATCH", "DELETE", "OPTIONS": return true
            default: return MethodPolicy.registeredMethods.contains(method)
            }
        case .anyToken: return true
        }
    }
}
