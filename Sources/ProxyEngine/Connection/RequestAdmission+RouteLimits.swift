import HTTP1
import Policy

extension RequestAdmission {
    /// The head against the route's own `limits.header_bytes` and `limits.header_count`.
    ///
    /// A head is read under the top-level limits (no route is known before it is complete); a route may only
    /// tighten them (the configuration refuses a larger value), so once the route is known the head is checked
    /// again, and refused the way the top-level limit refuses it: 431 `head_too_large` or `too_many_fields`.
    /// - Parameters:
    ///   - head: the request head.
    ///   - headBytes: its size as received (``RequestHeadParser/completedHeadBytes``).
    ///   - route: the route it goes to.
    /// - Throws: the 431 ``Problem`` to answer with.
    package static func checkRouteLimits(
        _ head: RequestHead, headBytes: Int, route: RouteConfiguration
    ) throws(Problem) {
        if headBytes > route.limits.headerBytes {
            throw Problem(
                431, HTTP1Error.Code.headTooLarge.name,
                detail: "the request head exceeds the route's \(route.limits.headerBytes) bytes")
        }
        if head.fields.count > route.limits.headerCount {
            throw Problem(
                431, HTTP1Error.Code.tooManyFields.name,
                detail: "the request head has more than the route's \(route.limits.headerCount) fields")
        }
    }
}
