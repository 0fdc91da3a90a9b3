import HTTP1
import Multipart

/// What a client connection counts (docs/metrics.md): each request once, when its answer is decided (the
/// upstream's response complete, or partgate's own refusal), and each exchange's body bytes and normalised
/// strict flags once, whichever way it ends.
extension ClientConnection {
    /// A request head is complete: its answer is due.
    func requestBegan() {
        requestPending = true
        requestStart = MonotonicClock.now()
        requestRoute = nil
    }

    /// The pending request was answered with `status` (a request refused before its head was complete, such
    /// as a malformed head, counts here too, under `route="-"`).
    func requestAnswered(status: Int) {
        if !requestPending {
            guard exchange == nil else { return }  // this exchange was counted already
            requestStart = MonotonicClock.now()
        }
        requestPending = false
        let route = requestRoute ?? worker.metrics.unrouted
        requestRoute = nil
        route.countRequest(status: status)
        route.duration.record(Double(MonotonicClock.elapsed(since: requestStart)) / 1_000_000_000)
    }

    /// Counts the exchange's body bytes and the strict flags its body normalised (once).
    func exchangeEnded(_ exchange: Exchange) {
        guard !exchange.metricsRecorded, let metrics = exchange.metrics else { return }
        exchange.metricsRecorded = true
        if exchange.bodyBytes > 0 { metrics.bytesIn.increment(by: exchange.bodyBytes) }
        if exchange.forwardedBytes > 0 { metrics.bytesOut.increment(by: exchange.forwardedBytes) }
        // Read in place first: `recorder` copies the recorder (a dozen references counted) for a list that is
        // nearly always empty.
        if let rewrite = exchange.rewrite, !rewrite.withRecorder({ $0.violations.isEmpty }) {
            for violation in rewrite.recorder.violations {
                worker.metrics.countStrictFlag(violation.flag, .normalize)
            }
        }
    }

    /// The connection closes with `exchange` unfinished: its bytes count; a response that had started
    /// counts with its status; a request the client left before any answer is not counted as answered.
    func exchangeAbandoned(_ exchange: Exchange) {
        exchangeEnded(exchange)
        if requestPending, exchange.responseStarted, let status = exchange.responseStatus {
            requestAnswered(status: status)
        }
        requestPending = false
        requestRoute = nil
    }

    /// A request refused at admission for a strict flag (an ambiguous multipart Content-Type).
    func countStrictRejection(_ problem: Problem) {
        guard problem.status == 400, let flag = StrictFlag(rawValue: problem.name) else { return }
        worker.metrics.countStrictFlag(flag, .reject)
    }
}
