import Foundation
import LoopbackTestSupport

/// Requests to partgate's admin listener over a fresh loopback connection each (the listener closes after
/// every answer).
struct AdminClient {
    let port: UInt16

    /// `METHOD path` and the response; nil when the connection failed or closed without an answer.
    func request(_ path: String, method: String = "GET") throws -> TestHTTPClient.Response? {
        let client = try TestHTTPClient(port: port, timeout: 10)
        client.send("\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        return client.readResponse(method: method)
    }

    /// `GET /metrics`, parsed.
    func metrics() throws -> PrometheusText? {
        guard let response = try request("/metrics"), response.status == 200 else { return nil }
        return PrometheusText(response.text)
    }

    /// Scrapes until `condition` holds on the metrics (at most `attempts` scrapes, 50 ms apart); the last scrape.
    func metrics(until condition: (PrometheusText) -> Bool, attempts: Int = 100) throws -> PrometheusText? {
        var last: PrometheusText?
        for _ in 0..<attempts {
            last = try metrics()
            if let last, condition(last) { return last }
            usleep(50_000)
        }
        return last
    }
}
