import CByteCopy
import CEventTLS
import HTTP1
import Multipart
import Policy

extension ClientConnection {
    /// Moves request body bytes upstream (or into the spool) until the input runs dry, the upstream is full,
    /// or the body ends.
    func pumpBody() {
        defer { plain?.refresh() }
        guard let exchange, let sink = exchange.bodySink else { return }
        let buffers = settings.buffers
        while phase == .body, !exchange.requestDone {
            if let upstream = exchange.upstream, EvBuffer.length(upstream.output) >= buffers.writeHighWater {
                pauseClient(upstream)
                return
            }
            guard let chain = EvBuffer.firstChain(input) else {
                // No input: a body that is already complete (none, or Content-Length 0) ends here.
                if case .end = exchange.decoder.decode(UnsafeRawBufferPointer(start: nil, count: 0)) {
                    finishRequestBody(exchange, sink)
                }
                return
            }
            guard pump(chain, exchange, sink) else { return }
        }
    }

    /// Decodes one input chain; returns false when the body ended or the request was refused.
    ///
    /// A re-encoded body goes on as one chunk per input chain, however many chunks of the client's the chain
    /// holds: the body ranges are parsed one by one and their ops written together at the chain's end. (A chunk
    /// per range gave a chunked upload of curl's 64 KiB chunks about five times the chunks of a Content-Length
    /// one, a seventh of them under 4 KiB: pieces where a client chunk straddled two reads.)
    private func pump(_ chain: UnsafeRawBufferPointer, _ exchange: Exchange, _ sink: any BodySink) -> Bool {
        var position = 0
        var consumed = 0
        /// Whether ops of this chain were recorded and not yet written.
        var pending = false
        while true {
            switch exchange.decoder.decode(UnsafeRawBufferPointer(rebasing: chain[position...])) {
            case .needMore:
                if pending {
                    guard apply(exchange, sink, &consumed), spoolIntact(exchange) else { return false }
                }
                EvBuffer.drain(input, chain.count - consumed)
                return true
            case .data(let range):
                let start = position + range.lowerBound
                exchange.bodyBytes += Int64(range.count)
                if exchange.bodyBytes > exchange.route.limits.bodyBytes {
                    answer(Problem(413, "limit_body_bytes", detail: "the body exceeds \(exchange.route.limits.bodyBytes) bytes"))
                    return false
                }
                guard forward(chain, start: start, count: range.count, &consumed, &pending, exchange, sink) else {
                    return false
                }
                position = start + range.count
            case .end(let framing):
                position += framing
                if pending {
                    // The chain's body bytes, the close delimiter and the last chunk go in one write (one chunk
                    // fewer, and one append to the upstream's output, for a body that came in one read).
                    guard finishRewrite(exchange, sink, &consumed, continuing: true), spoolIntact(exchange) else {
                        return false
                    }
                    EvBuffer.drain(input, position - consumed)
                    bodyEnded(exchange)
                    return false
                }
                EvBuffer.drain(input, position - consumed)
                finishRequestBody(exchange, sink)
                return false
            case .error(let error):
                answer(Problem(error.suggestedStatus, error.code.name))
                return false
            }
        }
    }

    /// Writes the body bytes at `start..<start+count` of `chain` upstream or to the spool when relayed; when
    /// re-encoded, parses them and leaves their ops `pending` for ``pump(_:_:_:)`` to write with the chain's
    /// other ranges. A refusal the policy or the encoder recorded is answered at once, as before any later range.
    private func forward(
        _ chain: UnsafeRawBufferPointer, start: Int, count: Int, _ consumed: inout Int, _ pending: inout Bool,
        _ exchange: Exchange, _ sink: any BodySink
    ) -> Bool {
        guard exchange.rewrite != nil else {
            if exchange.chunkedPassthrough { ChunkFraming.header(count, to: sink) }
            if exchange.spool == nil { exchange.forwardedBytes += Int64(count) }
            transfer(chain, index: start, count: count, &consumed, sink)
            if exchange.chunkedPassthrough { ChunkFraming.trailer(to: sink) }
            return spoolIntact(exchange)
        }
        do {
            try exchange.rewrite!.parse(
                UnsafeRawBufferPointer(rebasing: chain[start..<(start + count)]), in: chain, continuing: pending)
        } catch {
            parserRefused(error, exchange)
            reportAudit(exchange)
            refuse(error, exchange)
            return false
        }
        pending = true
        if exchange.rewrite!.rejection != nil || exchange.rewrite!.encodingError != nil {
            return apply(exchange, sink, &consumed)  // answers the refusal, writes nothing
        }
        return true
    }

    /// Carries out the recorded ops as one chunk.
    /// - Parameter last: the body ended: the last chunk follows (stream mode).
    private func apply(_ exchange: Exchange, _ sink: any BodySink, _ consumed: inout Int, last: Bool = false)
        -> Bool
    {
        reportAudit(exchange)
        if let rejection = exchange.rewrite!.rejection {
            // Nothing of this call is written; bytes already upstream stay an unterminated chunked body.
            answer(Problem(rejection.status, rejection.rule, detail: rejection.detail, part: rejection.partIndex))
            return false
        }
        if let error = exchange.rewrite!.encodingError {
            answer(Problem(400, error.code.rawValue, detail: "a name has no safe spelling"))
            return false
        }
        let total = exchange.rewrite!.outputCount
        if exchange.spool == nil { exchange.forwardedBytes += Int64(total) }
        return exchange.rewrite!.withRecorder { recorder in
            write(recorder, total: total, last: last, sink, &consumed)
        }
    }

    /// Writes the recorded ops as one chunk (and the last chunk when `last`).
    private func write(
        _ recorder: borrowing RewriteRecorder, total: Int, last: Bool, _ sink: any BodySink, _ consumed: inout Int
    ) -> Bool {
        if gather(recorder, total: total, last: last, into: sink) {
            return true
        }
        if total > 0 {
            ChunkFraming.header(total, to: sink)
            recorder.scratch.withUnsafeBytes { scratch in
                for op in recorder.ops {
                    switch op {
                    case .move(let index, let count):
                        transfer(recorder.chain!, index: index, count: count, &consumed, sink)
                    case .scratch(let start, let count):
                        sink.write(UnsafeRawBufferPointer(rebasing: scratch[start..<(start + count)]))
                    }
                }
            }
            ChunkFraming.trailer(to: sink)
        }
        if last { ChunkFraming.last(to: sink) }
        return true
    }

    /// Copies the recorded ops, as one chunk (and the last chunk when `last`) when the sink frames chunks, into
    /// one region the sink gathers (``BodySink/gather(count:_:)``); false, with nothing written, when it takes
    /// pieces only. The input is left to the end-of-chain drain, as when copying piece by piece.
    private func gather(_ recorder: borrowing RewriteRecorder, total: Int, last: Bool, into sink: any BodySink) -> Bool {
        let framed = sink.framesChunks
        let sizeLine = framed && total > 0 ? ChunkedEncoder.sizeLine(for: total) : nil
        let framing = sizeLine.map { $0.count + ChunkedEncoder.dataTerminator.count } ?? 0
        let count = total + framing + (framed && last ? ChunkedEncoder.lastChunk.count : 0)
        return sink.gather(count: count) { region in
            // A cursor value, not a nested function capturing `var at`: each capture access was checked for
            // exclusivity at run time.
            var cursor = RegionCursor(region: region)
            if total > 0 {
                sizeLine?.withUnsafeBytes { cursor.put($0) }
                recorder.scratch.withUnsafeBytes { scratch in
                    for op in recorder.ops {
                        switch op {
                        case .move(let index, let count):
                            cursor.put(UnsafeRawBufferPointer(rebasing: recorder.chain![index..<(index + count)]))
                        case .scratch(let start, let count):
                            cursor.put(UnsafeRawBufferPointer(rebasing: scratch[start..<(start + count)]))
                        }
                    }
                }
                if framed { ChunkedEncoder.dataTerminator.withUnsafeBytes { cursor.put($0) } }
            }
            if framed && last { ChunkedEncoder.lastChunk.withUnsafeBytes { cursor.put($0) } }
            precondition(cursor.at == count, "the gathered span fills its reservation")
        }
    }

    /// Sends body bytes at `index..<index+count` of the current input chain on: moved chain by chain to a
    /// plain upstream (zero-copy), copied into large chains for a TLS one (see ``CoalescingOutput``) or a
    /// spool. Input before them is drained, or left to the end-of-chain drain when copying.
    private func transfer(
        _ chain: UnsafeRawBufferPointer, index: Int, count: Int, _ consumed: inout Int, _ sink: any BodySink
    ) {
        if let target = sink.moveTarget {
            EvBuffer.drain(input, index - consumed)
            EvBuffer.move(from: input, to: target, count)
            consumed = index + count
        } else {
            sink.write(UnsafeRawBufferPointer(rebasing: chain[index..<(index + count)]))
        }
    }

    /// The body is complete: close the multipart body, end the chunked framing, wait for the response (or,
    /// for a spooled body, send it now).
    private func finishRequestBody(_ exchange: Exchange, _ sink: any BodySink) {
        if exchange.rewrite != nil {
            var none = 0
            guard finishRewrite(exchange, sink, &none, continuing: false) else { return }
        } else if exchange.chunkedPassthrough {
            ChunkFraming.last(to: sink)
        }
        bodyEnded(exchange)
    }

    /// Closes the multipart body and writes its end with the last chunk, after the ops still pending when
    /// `continuing`; false when the body was refused (answered).
    private func finishRewrite(
        _ exchange: Exchange, _ sink: any BodySink, _ consumed: inout Int, continuing: Bool
    ) -> Bool {
        do {
            try exchange.rewrite!.finish(continuing: continuing)
        } catch {
            parserRefused(error, exchange)
            reportAudit(exchange)
            refuse(error, exchange)
            return false
        }
        return apply(exchange, sink, &consumed, last: true)
    }

    /// The body was read to its end and written: wait for the response (or, for a spooled body, send it now).
    private func bodyEnded(_ exchange: Exchange) {
        exchange.bodyReceived = true
        if let spool = exchange.spool {
            sendSpool(exchange, spool)
            return
        }
        guard let upstream = exchange.upstream else { return }
        requestQueued(exchange, upstream)
    }

    /// The whole request is in the upstream's output buffer: wait for the response.
    func requestQueued(_ exchange: Exchange, _ upstream: UpstreamConnection) {
        exchange.requestDone = true
        upstream.requestWritten()
        if phase == .body { phase = .response }
        if upstream.connected {
            let timeout = exchange.responseTimeout
            upstream.setTimeouts(read: timeout, write: timeout)
            if exchange.responseStatus == nil { upstream.limitResponseHead(timeout) }
        }
        if clientPaused { resumeClient(upstream) }
        if exchange.responseDone { finishExchange() }
    }

    /// Counts the decisions of completed parts and hands their audit records to the event sink (routes with
    /// `audit: true`, and report-only routes: their records carry what would have happened).
    private func reportAudit(_ exchange: Exchange) {
        guard let rewrite = exchange.rewrite else { return }
        let metrics = exchange.metrics
        let audit = exchange.route.audit || exchange.route.reportOnly
        rewrite.drainParts { decision, record in
            metrics?.countPart(decision.decision, reportOnly: decision.reportOnly, rule: decision.rule)
            if audit, let record { worker.events.audit(record, exchange.route.name, exchange.requestID) }
        }
    }

    /// Records the part the parser refused, when the parser's error is the answer (``refuse(_:_:)``).
    private func parserRefused(_ error: MultipartError, _ exchange: Exchange) {
        guard let rewrite = exchange.rewrite, rewrite.rejection == nil, rewrite.encodingError == nil else { return }
        rewrite.parserRefused(error)
    }

    /// A multipart error: 413 for limits, 400 for malformed input; the upstream request is aborted.
    ///
    /// The parser reads a whole span before the engine looks at what the policy or the encoder made of it, so
    /// a refusal they recorded earlier in the body (a part head's charset, an unsafe name) wins over the
    /// parser's error further on: the answer depends on the body, not on how reads split it (found by the
    /// real-world proof suite, where one body got `charset` on one route and `delimiter_garbage` on another).
    private func refuse(_ error: MultipartError, _ exchange: Exchange) {
        if let rejection = exchange.rewrite?.rejection {
            answer(Problem(rejection.status, rejection.rule, detail: rejection.detail, part: rejection.partIndex))
        } else if exchange.rewrite?.recorder.encodingError != nil {
            answer(Problem(400, exchange.rewrite!.recorder.encodingError!.code.rawValue,
                           detail: "a name has no safe spelling"))
        } else {
            if case .flag(let flag) = error.reason { worker.metrics.countStrictFlag(flag, .reject) }
            answer(Problem(error.isLimit ? 413 : 400, error.name, part: error.part))
        }
    }

    func pauseClient(_ upstream: UpstreamConnection) {
        guard !clientPaused, isOpen else { return }
        clientPaused = true
        setReading(false)
        upstream.setWriteWatermark(low: settings.buffers.writeLowWater)
    }

    func resumeClient(_ upstream: UpstreamConnection) {
        guard clientPaused, isOpen else { return }
        clientPaused = false
        if let exchange { arm(exchange.idle) }  // the client's time runs again from now
        upstream.setWriteWatermark(low: 0)
        setReading(true)
    }
}

/// Chunked framing written straight into an evbuffer, or through a body sink (nothing for a spool).
enum ChunkFraming {
    static func header(_ count: Int, to sink: any BodySink) {
        guard sink.framesChunks else { return }
        let line = ChunkedEncoder.sizeLine(for: count)
        line.withUnsafeBytes { sink.write($0) }
    }

    static func trailer(to sink: any BodySink) {
        guard sink.framesChunks else { return }
        ChunkedEncoder.dataTerminator.withUnsafeBytes { sink.write($0) }
    }

    static func last(to sink: any BodySink) {
        guard sink.framesChunks else { return }
        ChunkedEncoder.lastChunk.withUnsafeBytes { sink.write($0) }
    }

    static func header(_ count: Int, to buffer: OpaquePointer) {
        let line = ChunkedEncoder.sizeLine(for: count)
        line.withUnsafeBytes { EvBuffer.add(buffer, $0) }
    }

    static func trailer(to buffer: OpaquePointer) {
        ChunkedEncoder.dataTerminator.withUnsafeBytes { EvBuffer.add(buffer, $0) }
    }

    static func last(to buffer: OpaquePointer) {
        ChunkedEncoder.lastChunk.withUnsafeBytes { EvBuffer.add(buffer, $0) }
    }
}

/// Copies pieces one after another into a reserved region (bounds-checked: a piece past the end traps).
struct RegionCursor {
    let region: UnsafeMutableRawBufferPointer
    private(set) var at = 0

    init(region: UnsafeMutableRawBufferPointer) {
        self.region = region
    }

    mutating func put(_ bytes: UnsafeRawBufferPointer) {
        precondition(bytes.count <= region.count - at, "a piece past the end of its region")
        if let source = bytes.baseAddress { partgate_copy_bytes(region.baseAddress! + at, source, bytes.count) }
        at += bytes.count
    }
}
