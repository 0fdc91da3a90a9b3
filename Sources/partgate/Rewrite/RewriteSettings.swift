import HTTP1
import Multipart
import Policy
import ProxyEngine

/// What `partgate rewrite` runs with: the loaded configuration's routes and head limits, and the options
/// that stand in for what only a live connection knows (the client's address, TLS) or that make the output
/// reproducible (the boundary).
struct RewriteSettings {
    /// The routes, first match wins.
    var routes: [RouteConfiguration]
    /// The request-head limits (`limits.header_bytes`, `limits.header_count`).
    var headLimits: HeadLimits
    /// `--route`: the route to use whatever the request's host, path and method.
    var forcedRoute: RouteConfiguration?
    /// `--framing`: how a re-encoded body is framed; nil: as the route's `forward` mode sends it.
    var framing: RewriteFraming?
    /// The boundary of the re-encoded body (`--boundary`, or one fresh random boundary for both passes).
    var boundary: Boundary
    /// The client address `X-Forwarded-For` ends with (`--client`).
    var client: String
    /// Whether the client connected over TLS (`--client-tls`: `X-Forwarded-Proto: https`).
    var clientTLS: Bool
    /// `--audit`: audit records for every route, not only those with `audit: true`.
    var audit: Bool
    /// `{uuid}` values, the same in both passes.
    var uuids: UUIDTape
    /// The Host each upstream (by name) gets for a request without one, as the proxy sends it
    /// (`UpstreamSettings.defaultHost`).
    var defaultHosts: [String: String] = [:]

    /// The framing of a re-encoded body on `route`: `--framing`, else as the proxy sends it: `Content-Length`
    /// for `forward: spool`, and for `forward: stream` when the request has a Content-Length of at most
    /// `buffer_small_bodies` (the proxy sends such a body whole when it arrived with its head, as a captured
    /// request's does); chunked otherwise.
    /// ``defaultHosts`` for `configuration`'s upstreams: the engine's server name (`server_name`, else the URL
    /// host) with the URL's port unless it is the scheme's default.
    static func defaultHosts(_ configuration: ProxyConfiguration) -> [String: String] {
        configuration.upstreams.mapValues { upstream in
            UpstreamSettings.hostField(
                upstream.serverName ?? upstream.url.host, port: upstream.url.port, tls: upstream.url.usesTLS)
        }
    }

    func framing(for route: RouteConfiguration, body: BodyFraming) -> RewriteFraming {
        if let framing { return framing }
        if route.forward == .spool { return .contentLength }
        if case .contentLength(let length) = body, length > 0, length <= route.bufferSmallBodies { return .contentLength }
        return .chunked
    }
}
