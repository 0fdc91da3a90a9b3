/// The names of partgate's metrics (docs/metrics.md documents each one: type, labels, meaning).
///
/// Every name starts with `partgate_`; counters end in `_total`, durations in `_seconds` (the Prometheus
/// factory exports swift-metrics `Timer`s as histograms in seconds).
package enum MetricName {
    /// Counter {route, status}: requests answered, by the status partgate sent.
    package static let requests = "partgate_requests_total"
    /// Histogram {route}: from the complete request head to the end of the answer.
    package static let requestDuration = "partgate_request_duration_seconds"
    /// Counter {route, decision, rule, report_only}: parts decided by the policy.
    package static let parts = "partgate_parts_total"
    /// Counter {route}: request body bytes read from clients (framing excluded).
    package static let bodyBytesIn = "partgate_body_bytes_in_total"
    /// Counter {route}: request body bytes handed to upstreams (after re-encoding, framing excluded).
    package static let bodyBytesOut = "partgate_body_bytes_out_total"
    /// Counter {flag, action}: strict flags that fired, refused (`reject`) or normalised (`normalize`).
    package static let strictFlagHits = "partgate_strict_flag_hits_total"
    /// Counter {upstream}: upstream connections that failed before they were established (TCP or timeout).
    package static let upstreamConnectFailures = "partgate_upstream_connect_failures_total"
    /// Counter {upstream}: upstream connections that failed with a TLS error.
    package static let upstreamTLSFailures = "partgate_upstream_tls_failures_total"
    /// Histogram {upstream}: from handing a request to an upstream connection to its response head.
    package static let upstreamLatency = "partgate_upstream_latency_seconds"
    /// Counter: client connections whose TLS handshake failed (an old protocol version, no common ALPN protocol,
    /// bytes that are not TLS).
    package static let clientTLSHandshakeFailures = "partgate_client_tls_handshake_failures_total"
    /// Gauge: open client connections.
    package static let openClientConnections = "partgate_open_client_connections"
    /// Gauge {upstream}: idle keep-alive upstream connections in the pools.
    package static let upstreamIdleConnections = "partgate_upstream_idle_connections"

    /// The `# HELP` text of each name.
    package static let help: [String: String] = [
        requests: "Requests answered, by route and the status partgate sent.",
        requestDuration: "Seconds from the complete request head to the end of the answer, by route.",
        parts: "Multipart parts decided by the policy, by route, decision, rule and report-only.",
        bodyBytesIn: "Request body bytes read from clients (framing excluded), by route.",
        bodyBytesOut: "Request body bytes handed to upstreams after re-encoding (framing excluded), by route.",
        strictFlagHits: "Strict flags that fired, by flag and action (reject or normalize).",
        upstreamConnectFailures: "Upstream connections that failed before they were established, by upstream.",
        upstreamTLSFailures: "Upstream connections that failed with a TLS error, by upstream.",
        upstreamLatency: "Seconds from handing a request to an upstream connection to its response head, by upstream.",
        clientTLSHandshakeFailures: "Client connections whose TLS handshake failed.",
        openClientConnections: "Open client connections.",
        upstreamIdleConnections: "Idle keep-alive upstream connections in the pools, by upstream.",
    ]

    /// Route label of requests no route took (malformed heads, `no_route`).
    package static let noRoute = "-"
    /// Rule label of a part decision that names no rule.
    package static let noRule = "-"
}
