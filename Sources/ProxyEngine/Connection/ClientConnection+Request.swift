import CEventTLS
import HTTP1
import Multipart
import Policy

extension ClientConnection {
    /// Feeds input chains to the head parser until a head completes.
    func readHead() {
        defer { plain?.refresh() }
        while phase == .head, let chain = EvBuffer.firstChain(input) {
            let wasIdle = heads.isIdle
            // Taken back only once bytes come: by then the last exchange is gone and its buffers are held by nothing
            // else (a pipelined head, parsed while the exchange ends, gets buffers of its own).
            if let spare = spareRequestFields.take() { heads.recycle(spare) }
            let parsed = heads.feed(chain)
            switch consume parsed {  // the head moves out of the result (see relayResponse)
            case .needMore:
                EvBuffer.drain(input, chain.count)
                if wasIdle && !heads.isIdle { arm(settings.headerTimeout) }
            case .complete(let head, let consumed):
                EvBuffer.drain(input, consumed)
                requestBegan()
                start(head)
            case .error(let error):
                answer(Problem(http: error))
                return
            }
        }
    }

    /// Validates a head, picks the route and the upstream, and starts forwarding.
    private func start(_ head: consuming RequestHead) {
        adoptCurrentSettings()
        let checked: RequestAdmission.CheckedHead
        do {
            checked = try RequestAdmission.checkHead(head)
        } catch {
            answer(error)
            return
        }
        let framing = checked.framing
        let routes = settings.routes
        // A loop, not `firstIndex(where:)`: the closure copied the checked head and each route's match.
        var found: Int?
        for index in routes.indices where routes[index].match.matches(host: checked.host, path: checked.path, method: head.method) {
            found = index
            break
        }
        guard let routeIndex = found else {
            answer(RequestAdmission.noRoute)
            return
        }
        let route = routes[routeIndex]
        // The connection adopted the worker's snapshot when this head completed, and the worker swaps its
        // settings, metrics and route upstreams together, so the route's index is the same in all of them.
        let metrics = worker.metrics.routes[routeIndex]
        requestRoute = metrics
        do {
            try RequestAdmission.checkRouteLimits(head, headBytes: heads.completedHeadBytes, route: route)
        } catch {
            answer(error)
            return
        }
        guard let routeUpstream = worker.routeUpstreams[routeIndex] else {
            answer(Problem(502, "no_upstream"))
            return
        }
        let body: Exchange.BodyMode
        var renewable: PolicyRewriter?
        let wouldRefuse: Problem?
        do {
            let (decided, refusal) = try RequestAdmission.decideBodyParts(head, framing: framing, route: route)
            wouldRefuse = refusal
            switch consume decided {
            case .passthrough(let chunked):
                body = .passthrough(chunked: chunked)
            case .rewrite(let parser):
                let made = makeBodyRewriter(
                    parser: parser, route: route, digests: route.audit, boundary: worker.freshBoundary(),
                    recycling: &spareRewriter)
                body = .rewrite(made.rewriter)
                renewable = made.renewable
            }
        } catch {
            countStrictRejection(error)
            answer(error)
            return
        }
        // The head moves into the exchange (read from there on).
        let exchange = Exchange(head: head, framing: consume framing, route: route, body: body,
                                requestID: worker.nextRequestID())
        self.exchange = exchange
        arm(exchange.idle)  // the body's reads, then the response's writes, each within the route's idle_timeout
        exchange.metrics = metrics
        exchange.renewable = renewable
        if let wouldRefuse {
            worker.events.onWouldRefuse(
                ReportOnlyRefusal(
                    status: wouldRefuse.status, flag: wouldRefuse.name, route: route.name,
                    request: exchange.requestID, method: exchange.head.method, target: exchange.head.target.string))
        }
        exchange.routeUpstream = routeUpstream
        exchange.spool = makeSpool(for: exchange)
        // Read from the exchange, which took the framing without a copy.
        if !exchange.framing.keepAlive || worker.draining { closeAfterExchange = true }
        if exchange.framing.expectsContinue, !exchange.decoder.isComplete {
            EvBuffer.add(output, Array("HTTP/1.1 100 Continue\r\n\r\n".utf8))
        }
        if exchange.spool != nil {  // forward: spool: the upstream is opened once the body passed
            phase = .body
            pumpBody()
            return
        }
        guard let upstream = worker.pool.take(routeUpstream.settings.name)
            ?? UpstreamConnection(
                loop: worker.loop, settings: routeUpstream.settings, generation: settings.generation,
                buffers: settings.buffers, metrics: metrics.upstream, addressMemory: worker.pool)
        else {
            answer(Problem(502, "upstream_unavailable"))
            return
        }
        upstream.delegate = self
        upstream.requests += 1
        upstream.limitWriteRate(route.maxUpstreamRate)
        exchange.upstream = upstream
        exchange.responseTimeout = routeUpstream.settings.response
        exchange.upstreamStarted = MonotonicClock.now()
        // A pooled connection is connected already: the body's writes get the response timeout now, as a new
        // connection's do once it connects (upstreamConnected).
        if upstream.connected { upstream.setTimeouts(read: nil, write: exchange.responseTimeout) }
        writeUpstreamHead(exchange, to: upstream)
        phase = .body
        pumpBody()
    }

    /// Writes the request head as the upstream gets it (``UpstreamRequestHead``) to `upstream`: a rewritten body
    /// goes chunked, a spooled one (rewritten or relayed) with its exact Content-Length. Made in the worker's
    /// head buffer (no array per head).
    func writeUpstreamHead(_ exchange: Exchange, to upstream: UpstreamConnection) {
        worker.withHeadBuffer { buffer in
            writeUpstreamHead(exchange, into: &buffer)
            upstream.write(buffer)
        }
    }

    /// Writes the request head and a small spooled body held in memory into one region of a TLS upstream's
    /// output, reserved and committed once (one chain of their size, one run of the buffer's callbacks: the head
    /// written alone first reserved a 64 KiB chain and ran them once more). False, with nothing written, when the
    /// upstream takes its bytes otherwise (plain, or under `max_upstream_rate`) or the body is not in memory.
    func writeSmallRequest(_ exchange: Exchange, _ spool: Spool, to upstream: UpstreamConnection) -> Bool {
        guard upstream.isTLS, spool.length <= Spool.smallBytes, spool.file == nil else { return false }
        return worker.withHeadBuffer { buffer in
            writeUpstreamHead(exchange, into: &buffer)
            let count = buffer.count + Int(spool.length)
            return upstream.gather(count: count) { region in
                var cursor = RegionCursor(region: region)
                buffer.withUnsafeBytes { cursor.put($0) }
                _ = spool.copyOut { cursor.put($0) }
                precondition(cursor.at == count, "the head and the spooled body fill their reservation")
            }
        }
    }

    /// The head as ``UpstreamRequestHead`` writes it for `exchange`: a rewritten body goes chunked, a spooled one
    /// with its exact Content-Length.
    private func writeUpstreamHead(_ exchange: Exchange, into buffer: inout [UInt8]) {
        let body: UpstreamRequestHead.Body
        if let rewrite = exchange.rewrite {
            body = .rewritten(boundary: rewrite.boundary, length: exchange.spool?.length)
        } else if let spool = exchange.spool {
            body = .spooled(length: spool.length)
        } else {
            body = .relayed(exchange.framing.body)
        }
        UpstreamRequestHead.write(exchange.head, from: forwarding, body: body, defaultHost: defaultHost(exchange), into: &buffer)
    }

    /// The Host a request without one goes upstream with. Read field by field: taking the ``UpstreamSettings``
    /// value whole (`(a ?? b)?.defaultHost`) copied it, six references counted and released, twice per request.
    private func defaultHost(_ exchange: Exchange) -> String {
        if let routeUpstream = exchange.routeUpstream { return routeUpstream.settings.defaultHost }
        return settings.upstreams[exchange.route.upstream]?.defaultHost ?? ""
    }
}
