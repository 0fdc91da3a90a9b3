import CEventTLS
import Policy

/// `forward: spool`: the body goes into a ``Spool`` while it is read; the upstream is opened, and gets the
/// head with the exact Content-Length and then the body, only once the whole request passed. Until then it
/// sees nothing, not even a connection: a refused request costs the upstream nothing, and a slow client
/// ties up no upstream connection.
extension ClientConnection {
    /// A spool for the request's body when its route spools and there is a body to hold: a rewritten body
    /// (even an empty one, which the parser then refuses) or any other body. Passthrough bodies on a spool
    /// route are spooled too, as nginx's `proxy_request_buffering` does: the upstream sees every request of
    /// the route whole and with a Content-Length (a chunked one included). Requests without a body go
    /// upstream at once, as in stream mode.
    func makeSpool(for exchange: Exchange) -> Spool? {
        guard exchange.route.forward == .spool else { return nil }
        let hasBody = exchange.framing.body != .none && exchange.framing.body != .contentLength(0)
        guard hasBody || exchange.rewrite != nil else { return nil }
        return Spool(
            memoryLimit: Int(clamping: exchange.route.spoolMemory), stagingBytes: settings.buffers.maxSingleIO,
            directory: settings.spoolDirectory)
    }

    /// False, with the request answered, once the spool failed (a temp file could not be created or written).
    func spoolIntact(_ exchange: Exchange) -> Bool {
        guard let failure = exchange.spool?.failure else { return true }
        spoolFailed(failure)
        return false
    }

    /// The body passed: opens the upstream, writes the head with the spool's length, and starts the body.
    func sendSpool(_ exchange: Exchange, _ spool: Spool) {
        do {
            try spool.finish()
        } catch {
            spoolFailed(error)
            return
        }
        phase = .response
        guard let upstream = openUpstream(exchange) else {
            answer(Problem(502, "upstream_unavailable"))
            return
        }
        exchange.upstreamStarted = MonotonicClock.now()
        exchange.forwardedBytes += spool.length
        writeUpstreamHead(exchange, to: upstream)
        if upstream.connected {
            upstream.setTimeouts(read: nil, write: exchange.responseTimeout)
        }
        // Refill from the drained-write callback once the output is down to the low watermark.
        upstream.setWriteWatermark(low: settings.buffers.writeLowWater)
        continueSpool(exchange, upstream)
    }

    /// Hands the next part of the spool to the upstream (called again from its drained-write callback);
    /// stops once the upstream answered (an early answer: the connection is then not reused).
    func continueSpool(_ exchange: Exchange, _ upstream: UpstreamConnection) {
        guard let spool = exchange.spool, !exchange.requestDone, exchange.responseStatus == nil else { return }
        let buffers = settings.buffers
        if upstream.isTLS, spool.length <= Spool.copiedBytes, spool.copyOut({ upstream.write($0) }) {
            upstream.setWriteWatermark(low: 0)
            requestQueued(exchange, upstream)
            return
        }
        do {
            let done = try spool.send(
                to: upstream.output, sendfile: !upstream.isTLS, highWater: buffers.writeHighWater,
                slice: min(buffers.maxSingleIO, upstream.writeSlice))
            guard done else { return }
        } catch {
            spoolFailed(error)
            return
        }
        upstream.setWriteWatermark(low: 0)
        requestQueued(exchange, upstream)
    }

    /// An idle pooled connection to the route's upstream, or a new one; nil when none can be made.
    private func openUpstream(_ exchange: Exchange) -> UpstreamConnection? {
        guard let upstreamSettings = settings.upstreams[exchange.route.upstream],
            let upstream = worker.pool.take(upstreamSettings.name)
                ?? UpstreamConnection(
                    loop: worker.loop, settings: upstreamSettings, generation: settings.generation,
                    buffers: settings.buffers, metrics: exchange.metrics?.upstream)
        else { return nil }
        upstream.delegate = self
        upstream.requests += 1
        upstream.limitWriteRate(exchange.route.maxUpstreamRate)
        exchange.upstream = upstream
        exchange.responseTimeout = upstreamSettings.response
        return upstream
    }

    private func spoolFailed(_ error: SpoolError) {
        worker.events.log("\(error)")
        answer(Problem(500, "spool_failed"))
    }
}
