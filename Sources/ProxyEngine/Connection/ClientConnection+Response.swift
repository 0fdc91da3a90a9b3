import CEventTLS
import HTTP1

extension ClientConnection: UpstreamDelegate {
    /// The fields never relayed from a response as received (Connection options come on top).
    static let hopByHopRemovals = FieldNameSet(RequestHead.standardHopByHopFieldNames)

    func upstreamConnected(_ upstream: UpstreamConnection) {
        guard let exchange, exchange.upstream === upstream else { return }
        let timeout = exchange.responseTimeout
        upstream.setTimeouts(read: exchange.requestDone ? timeout : nil, write: timeout)
        if exchange.requestDone { upstream.limitResponseHead(timeout) }
    }

    func upstreamDrained(_ upstream: UpstreamConnection) {
        guard let exchange, exchange.upstream === upstream else { return }
        if exchange.spool != nil, !exchange.requestDone {
            continueSpool(exchange, upstream)
            return
        }
        if clientPaused {
            resumeClient(upstream)
            pumpBody()
        }
    }

    func upstreamReadable(_ upstream: UpstreamConnection) {
        guard let exchange, exchange.upstream === upstream else { return }
        relayResponse(exchange, upstream)
    }

    func upstreamClosed(_ upstream: UpstreamConnection, reason: String?, timedOut: Bool) {
        guard let exchange, exchange.upstream === upstream else { return }
        // Bytes left in the input: the rest of a response, or an early answer read after a failed write.
        if exchange.responseStatus != nil || EvBuffer.length(upstream.input) > 0 { relayResponse(exchange, upstream) }
        guard self.exchange === exchange, !exchange.responseDone else { return }
        exchange.upstream = nil
        if exchange.responseStatus != nil, var decoder = exchange.responseDecoder {
            // A close-delimited body ends with the upstream's orderly close (EOF), not with a reset or a timeout
            // (RFC 9112 §8): cut short, the client must see it cut short (``endResponseEarly()``).
            if decoder.finish() == nil, reason == nil, !timedOut {
                exchange.responseDecoder = decoder
                finishExchange()  // a close-delimited body ends here
            } else {
                let why = timedOut ? "timed out" : reason ?? "EOF"
                worker.events.log("upstream \(upstream.settings.name) closed mid-response: \(why)")
                endResponseEarly()
            }
            return
        }
        if retryOnNewConnection(exchange, after: upstream, timedOut: timedOut) {
            worker.events.log(
                "upstream \(upstream.settings.name): a reused connection \(reason ?? "closed") before responding; "
                    + "\(exchange.head.method) sent again on a new connection")
            return
        }
        worker.events.log("upstream \(upstream.settings.name): \(reason ?? "closed before responding")")
        if timedOut {
            answer(Problem(504, "upstream_timeout"))
        } else {
            answer(Problem(502, "upstream_failed"))
        }
    }

    /// The methods a request may be sent again with when a connection failed under it (RFC 9110 §9.2.2).
    static let idempotentMethods: Set<String> = ["GET", "HEAD", "OPTIONS", "TRACE", "PUT", "DELETE"]

    /// A keep-alive connection taken from the pool may have been closed by the upstream as the request went out
    /// (its idle timeout, or a close it did not announce). Like nginx and HAProxy, a request is then sent once
    /// more on a new connection, when that is safe: an idempotent method (RFC 9112 §9.3.1), no body, all of it
    /// written, and no byte of a response read. Anything else is 502 as before.
    private func retryOnNewConnection(_ exchange: Exchange, after failed: UpstreamConnection, timedOut: Bool) -> Bool {
        guard !timedOut, !exchange.retried, failed.requests > 1, exchange.requestDone, exchange.responseStatus == nil,
            exchange.responseParser.isIdle, exchange.rewrite == nil, exchange.spool == nil, !worker.draining,
            exchange.interimResponses == 0, Self.idempotentMethods.contains(exchange.head.method),
            exchange.framing.body == .none || exchange.framing.body == .contentLength(0),
            let routeUpstream = exchange.routeUpstream,
            let upstream = UpstreamConnection(
                loop: worker.loop, settings: routeUpstream.settings, generation: settings.generation,
                buffers: settings.buffers, metrics: exchange.metrics?.upstream, addressMemory: worker.pool)
        else { return false }
        exchange.retried = true
        upstream.delegate = self
        upstream.requests += 1
        upstream.limitWriteRate(exchange.route.maxUpstreamRate)
        exchange.upstream = upstream
        exchange.upstreamStarted = MonotonicClock.now()
        writeUpstreamHead(exchange, to: upstream)
        requestQueued(exchange, upstream)
        return true
    }

    /// Parses the response head, then moves the response body to the client.
    private func relayResponse(_ exchange: Exchange, _ upstream: UpstreamConnection) {
        guard upstream.isOpen else { return }
        while self.exchange === exchange, !exchange.responseDone {
            if exchange.responseStatus == nil {
                guard let chain = EvBuffer.firstChain(upstream.input) else { return }
                if let spare = spareResponseFields.take() { exchange.responseParser.recycle(spare) }
                // Consumed: the head is moved out of the result, not copied out of it and the result destroyed.
                let parsed = exchange.responseParser.feed(chain)
                switch consume parsed {
                case .needMore:
                    EvBuffer.drain(upstream.input, chain.count)
                case .error(let error):
                    worker.events.log("upstream \(upstream.settings.name) sent an invalid response: \(error.code.name)")
                    answer(Problem(502, "upstream_invalid_response"))
                    return
                case .complete(let head, let consumed):
                    EvBuffer.drain(upstream.input, consumed)
                    guard startResponse(head, exchange, upstream) else { return }
                    if head.fields.isRecyclable { spareResponseFields = head.fields }
                }
                continue
            }
            if !isOpen { return }
            if EvBuffer.length(output) >= settings.buffers.writeHighWater {
                upstreamPaused = true
                arm(exchange.idle)  // the client must read some of it within idle_timeout
                upstream.setReading(false)
                return
            }
            let chain = EvBuffer.firstChain(upstream.input) ?? UnsafeRawBufferPointer(start: nil, count: 0)
            guard relay(chain, exchange, upstream), !chain.isEmpty else { return }
        }
    }

    /// Relays one chain of response body; false when the response ended or failed.
    private func relay(_ chain: UnsafeRawBufferPointer, _ exchange: Exchange, _ upstream: UpstreamConnection) -> Bool {
        var position = 0
        var consumed = 0
        while true {
            let rest = chain.isEmpty ? chain : UnsafeRawBufferPointer(rebasing: chain[position...])
            switch exchange.responseDecoder!.decode(rest) {
            case .needMore:
                EvBuffer.drain(upstream.input, chain.count - consumed)
                return true
            case .data(let range):
                let start = position + range.lowerBound
                if exchange.responseChunked { ChunkFraming.header(range.count, to: output) }
                EvBuffer.drain(upstream.input, start - consumed)
                EvBuffer.move(from: upstream.input, to: output, range.count)
                if exchange.responseChunked { ChunkFraming.trailer(to: output) }
                consumed = start + range.count
                position = consumed
            case .end(let framing):
                EvBuffer.drain(upstream.input, position + framing - consumed)
                finishExchange()
                return false
            case .error(let error):
                worker.events.log("upstream \(upstream.settings.name) sent a bad body: \(error.code.name)")
                endResponseEarly()
                return false
            }
        }
    }

    /// Sends the response head to the client; false if the response is unusable.
    private func startResponse(_ head: ResponseHead, _ exchange: Exchange, _ upstream: UpstreamConnection) -> Bool {
        if head.isInformational {
            if head.status == 101 {
                answer(Problem(502, "upstream_invalid_response"))
                return false
            }
            relayInterim(head, exchange, upstream)
            return true
        }
        let framing: ResponseFraming
        do {
            framing = try ResponseFraming(analyzing: head, requestMethod: exchange.head.method)
        } catch {
            worker.events.log("upstream \(upstream.settings.name) response framing: \(error.code.name)")
            answer(Problem(502, "upstream_invalid_response"))
            return false
        }
        exchange.responseStatus = head.status
        upstream.responseHeadArrived()
        if exchange.upstreamStarted != 0 {
            let latency = MonotonicClock.elapsed(since: exchange.upstreamStarted)
            exchange.metrics?.upstream?.latency.record(Double(latency) / 1_000_000_000)
        }
        // Queued is not sent: a body still in the upstream's output (a spool's sendfile segment is queued
        // whole) was not fully sent when the answer came.
        if !exchange.requestDone || EvBuffer.length(upstream.output) > 0 {
            // An early answer (401, 413, ...): relay it, stop forwarding the body, never reuse this upstream
            // connection, and close the client connection afterwards.
            exchange.earlyResponse = true
            exchange.upstreamReusable = false
            closeAfterExchange = true
            phase = .response
            // The rest of the response is timed as after a whole request (a full-duplex upstream that waits for
            // body bytes partgate no longer sends must not hold the exchange).
            upstream.setTimeouts(read: exchange.responseTimeout, write: exchange.responseTimeout)
            EvBuffer.drain(input, EvBuffer.length(input))
        }
        if !framing.keepAlive { exchange.upstreamReusable = false }
        upstream.keepAliveSeconds = framing.keepAliveTimeout
        if worker.draining { closeAfterExchange = true }
        let clientHTTP11 = exchange.head.version == .http1_1
        switch framing.body {
        case .chunked:
            exchange.responseChunked = clientHTTP11
            if !clientHTTP11 { closeAfterExchange = true }
        case .untilClose:
            // An HTTP/1.1 client gets the body chunked, as nginx sends it: the last chunk marks a body that
            // ended with the upstream's orderly close, its absence one cut short, and the connection stays open.
            // An HTTP/1.0 client reads to the close.
            if clientHTTP11 {
                exchange.responseChunked = true
            } else {
                closeAfterExchange = true
            }
        case .none, .contentLength:
            break
        }
        var adding: [HTTPField] = []
        let codings = framing.otherTransferCodings
        if !codings.isEmpty {
            var value = Array(codings.joined(separator: Array(", ".utf8)))
            // Coded bytes (`gzip, chunked`) stay coded: the codings are announced again, `chunked` re-added when
            // partgate chunks. An HTTP/1.0 client knows no transfer coding: it would take the coded bytes as the body.
            guard clientHTTP11 else {
                worker.events.log(
                    "upstream \(upstream.settings.name) sent transfer coding '\(String(decoding: value, as: UTF8.self))', "
                        + "which an HTTP/1.0 client cannot take")
                answer(Problem(502, "upstream_invalid_response"))
                return false
            }
            if exchange.responseChunked { value.append(contentsOf: ", chunked".utf8) }
            adding.append(HTTPField(name: "Transfer-Encoding", valueBytes: value))
        } else if exchange.responseChunked {
            adding.append(HTTPField(name: "Transfer-Encoding", value: "chunked"))
        }
        // RFC 9110 §6.6.1: a recipient with a clock forwarding a response without Date adds one.
        if !head.fields.contains(named: "date") { adding.append(HTTPField(name: "Date", value: worker.httpDate())) }
        if closeAfterExchange {
            adding.append(HTTPField(name: "Connection", value: "close"))
        } else if !clientHTTP11 {
            adding.append(HTTPField(name: "Connection", value: "keep-alive"))
        }
        // The Connection options the framing parsed already (nginx sends `keep-alive` on every response).
        let options = framing.connectionOptions
        var removing = options.isEmpty || (options.count == 1 && options.first! == "keep-alive")
            || options.isSubset(of: RequestHead.standardHopByHopFieldNames)
            ? Self.hopByHopRemovals
            : Self.hopByHopRemovals.union(framing.connectionOptions.subtracting(RequestFraming.protectedFieldNames))
        // A 204 carries no Content-Length (RFC 9110 §8.6): one received is not passed on for clients to wait on.
        if head.status == 204 { removing = removing.union(["content-length"]) }
        // A length spelled otherwise than in plain decimal (`010`, `+5`, `5, 5`) is written again as partgate read
        // it, as on the request side: a recipient that reads `010` as octal would frame another body.
        if head.status != 204, !head.fields.contentLengthIsCanonical {
            removing = removing.union(["content-length"])
            if case .contentLength(let length) = framing.body {
                adding.append(HTTPField(name: "Content-Length", value: String(length)))
            }
        }
        worker.withHeadBuffer { bytes in
            head.write(into: &bytes, version: .http1_1, removing: removing, adding: adding)
            EvBuffer.add(output, bytes)
        }
        exchange.responseStarted = true
        exchange.responseDecoder = BodyDecoder(framing: framing.body)
        if worker.events.reportsAccess {
            worker.access(exchange.head.method, exchange.head.target.string, head.status, exchange.route.name)
        }
        return true
    }

    /// Relays an interim response (102, 103, ...) to an HTTP/1.1 client, as RFC 9110 §15.2 asks of a proxy.
    /// Dropped: `100 Continue` (partgate answers `Expect` itself and never sends it upstream), every one to an
    /// HTTP/1.0 client (which knows no 1xx, RFC 9110 §15.2), one with invalid framing or Connection fields, and
    /// those past ``maxInterimResponses`` (each is at most a response head's limit in the client's output).
    private func relayInterim(_ head: ResponseHead, _ exchange: Exchange, _ upstream: UpstreamConnection) {
        guard head.status != 100, exchange.head.version == .http1_1, isOpen else { return }
        guard exchange.interimResponses < Self.maxInterimResponses else {
            if exchange.interimResponses == Self.maxInterimResponses {
                worker.events.log(
                    "upstream \(upstream.settings.name) sent more than \(Self.maxInterimResponses) interim responses; "
                        + "the rest are dropped")
                exchange.interimResponses += 1
            }
            return
        }
        let framing: ResponseFraming
        do {
            framing = try ResponseFraming(analyzing: head, requestMethod: exchange.head.method)
        } catch {
            worker.events.log("upstream \(upstream.settings.name) interim \(head.status) dropped: \(error.code.name)")
            return
        }
        exchange.interimResponses += 1
        // A 1xx has no content (RFC 9110 §8.6, §6.4.1): no Content-Length goes with it.
        let removing = Self.interimRemovals.union(
            framing.connectionOptions.subtracting(RequestFraming.protectedFieldNames))
        worker.withHeadBuffer { bytes in
            head.write(into: &bytes, version: .http1_1, removing: removing, adding: [])
            EvBuffer.add(output, bytes)
        }
    }

    /// The response cannot be completed (a bad body from the upstream, or a body cut short): what reached the
    /// client's output goes out, with no last chunk, then the connection closes, so the client sees the
    /// response end early (as nginx does) rather than an empty reply or a complete-looking one.
    private func endResponseEarly() {
        closeAfterExchange = true
        beginClosing()
    }

    /// Most interim responses relayed to the client in one exchange.
    static let maxInterimResponses = 8
    /// The fields never relayed with an interim response.
    static let interimRemovals = hopByHopRemovals.union(["content-length"])

    /// The response is complete: recycle the upstream connection, then the next request or close.
    func finishExchange() {
        guard let exchange else { return }
        exchange.responseDone = true
        exchangeEnded(exchange)
        if let status = exchange.responseStatus { requestAnswered(status: status) }
        if exchange.responseChunked { ChunkFraming.last(to: output) }
        if let upstream = exchange.upstream {
            exchange.upstream = nil
            // Bytes after the response are not the next request's response: such a connection is not reused,
            // whether they were decrypted already or wait in the SSL's read-ahead buffer.
            if exchange.requestDone, exchange.upstreamReusable, !exchange.earlyResponse, !worker.draining,
                !upstream.holdsUnreadBytes
            {
                worker.pool.put(upstream)
            } else {
                upstream.close()
            }
        }
        served += 1
        worker.exchangesCompleted += 1
        StartupPages.exchangesCompleted(worker.exchangesCompleted)
        if exchange.head.fields.isRecyclable { spareRequestFields = exchange.head.fields }
        if let rewriter = exchange.renewable, rewriter.isRecyclable {
            exchange.renewable = nil
            spareRewriter = rewriter
        }
        self.exchange = nil
        upstreamPaused = false
        if closeAfterExchange || worker.draining {
            beginClosing()
            return
        }
        phase = .head
        adoptCurrentSettings()
        arm(settings.idle)
        scheduleIdleTrim()
        if clientPaused {
            clientPaused = false
            setReading(true)
        }
        readHead()
    }
}
