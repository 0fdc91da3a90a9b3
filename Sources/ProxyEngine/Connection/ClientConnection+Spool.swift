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
    ///
    /// On a stream route, a re-encoded body of at most `buffer_small_bodies` (Content-Length framing) whose bytes
    /// have all arrived already is spooled in memory too: sending it chunked as it is parsed would gain nothing,
    /// while a Content-Length spares the backend the chunked decoding (and nginx one more read per request).
    func makeSpool(for exchange: Exchange) -> Spool? {
        let route = exchange.route
        let memoryLimit: Int
        if route.forward == .stream {
            guard exchange.rewrite != nil, case .contentLength(let length) = exchange.framing.body, length > 0,
                length <= route.bufferSmallBodies, hasArrived(Int(length))
            else { return nil }
            // Room for the re-encoded body in memory (a form's re-encoding adds a few dozen bytes per part).
            memoryLimit = Int(clamping: max(route.spoolMemory, 4 * Int64(length)))
        } else {
            let hasBody = exchange.framing.body != .none && exchange.framing.body != .contentLength(0)
            guard hasBody || exchange.rewrite != nil else { return nil }
            memoryLimit = Int(clamping: route.spoolMemory)
        }
        let stagingBytes = settings.buffers.maxSingleIO
        if let spare = worker.spareSpool {
            worker.spareSpool = nil
            if spare.reuse(memoryLimit: memoryLimit, stagingBytes: stagingBytes, directory: settings.spoolDirectory) {
                return spare
            }
        }
        return Spool(memoryLimit: memoryLimit, stagingBytes: stagingBytes, directory: settings.spoolDirectory)
    }

    /// Whether `count` body bytes have all arrived: in the input already, or (a plain client, whose first read of
    /// a request takes at most ``PlainSocket/probeBytes``) there together with what the socket holds unread.
    private func hasArrived(_ count: Int) -> Bool {
        let buffered = EvBuffer.length(input)
        return buffered >= count || buffered + (plain?.waitingBytes ?? 0) >= count
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
        // A small body in memory follows its head into the same TLS record (moved chains would each make a record
        // and a `write` of their own). The spool is then done with, and the worker keeps it for the next one.
        if writeSmallRequest(exchange, spool, to: upstream)
            || (upstream.isTLS && spool.length <= Spool.smallBytes && writeHeadThenCopy(exchange, spool, upstream))
        {
            exchange.spool = nil
            worker.spareSpool = spool
            requestQueued(exchange, upstream)
            return
        }
        writeUpstreamHead(exchange, to: upstream)
        if upstream.connected {
            upstream.setTimeouts(read: nil, write: exchange.responseTimeout)
        }
        // Refill from the drained-write callback once the output is down to the low watermark.
        upstream.setWriteWatermark(low: settings.buffers.writeLowWater)
        continueSpool(exchange, upstream)
    }

    /// The head, then a small body in memory copied after it, for a TLS upstream that takes no gathered region
    /// (under `max_upstream_rate`); false, with nothing written, for a spilled spool.
    private func writeHeadThenCopy(_ exchange: Exchange, _ spool: Spool, _ upstream: UpstreamConnection) -> Bool {
        guard spool.file == nil else { return false }
        writeUpstreamHead(exchange, to: upstream)
        return spool.copyOut { upstream.write($0) }
    }

    /// Hands the next part of the spool to the upstream (called again from its drained-write callback);
    /// stops once the upstream answered (an early answer: the connection is then not reused).
    func continueSpool(_ exchange: Exchange, _ upstream: UpstreamConnection) {
        guard let spool = exchange.spool, !exchange.requestDone, exchange.responseStatus == nil else { return }
        let buffers = settings.buffers
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
        if let routeUpstream = exchange.routeUpstream { return openUpstream(exchange, routeUpstream) }
        guard let upstreamSettings = settings.upstreams[exchange.route.upstream] else { return nil }
        return openUpstream(exchange, RouteUpstream(upstreamSettings))
    }

    /// The route's upstream is passed as the object that holds its settings, and they are read there field by
    /// field: lent as a `borrowing UpstreamSettings` (`routeUpstream.settings`), they were still copied for the
    /// call, a dozen references counted and released per request, and `a?.settings ?? b[name]` copied them too.
    private func openUpstream(_ exchange: Exchange, _ target: RouteUpstream) -> UpstreamConnection? {
        let upstream: UpstreamConnection
        if let pooled = worker.pool.take(target.settings.name) {
            upstream = pooled
        } else {
            guard let made = UpstreamConnection(
                loop: worker.loop, settings: target.settings, generation: settings.generation,
                buffers: settings.buffers, metrics: exchange.metrics?.upstream, addressMemory: worker.pool)
            else { return nil }
            upstream = made
        }
        upstream.delegate = self
        upstream.requests += 1
        upstream.limitWriteRate(exchange.route.maxUpstreamRate)
        exchange.upstream = upstream
        exchange.responseTimeout = target.settings.response
        return upstream
    }

    private func spoolFailed(_ error: SpoolError) {
        worker.events.log("\(error)")
        answer(Problem(500, "spool_failed"))
    }
}
