@testable import HTTP1

/// A miniature of the proxy engine's read loop: head parser, framing analysis, body decoder, over
/// spans, pipelined. It never copies a body byte except to record it for the test.
enum ConnectionDriver {
    private enum Phase {
        case head
        case body(BodyDecoder, Transcript.Message, keepAlive: Bool, handoff: Bool)
    }

    /// Runs a stream of requests.
    static func requests(
        _ chunks: [[UInt8]],
        finish: Bool = false,
        headLimits: HeadLimits = HeadLimits(),
        chunkedLimits: ChunkedLimits = ChunkedLimits()
    ) -> Transcript {
        var parser = RequestHeadParser(limits: headLimits)
        return run(chunks, finish: finish, chunkedLimits: chunkedLimits, parser: &parser) { (head) throws(HTTP1Error) in
            let framing = try RequestFraming(analyzing: head)
            let message = Transcript.Message(summary: "\(head.method) \(head.target)", framing: framing.body, body: [])
            return (message, framing.keepAlive, framing.isUpgradeRequest, head.isConnect, false)
        }
    }

    /// Runs a stream of responses; `requestMethods[i]` is the method of the i-th request answered.
    static func responses(
        _ chunks: [[UInt8]],
        finish: Bool = false,
        requestMethods: [String] = [],
        headLimits: HeadLimits = HeadLimits()
    ) -> Transcript {
        var parser = ResponseHeadParser(limits: headLimits)
        var finalCount = 0
        return run(chunks, finish: finish, chunkedLimits: ChunkedLimits(), parser: &parser) {
            (head) throws(HTTP1Error) in
            let method = finalCount < requestMethods.count ? requestMethods[finalCount] : "GET"
            let framing = try ResponseFraming(analyzing: head, requestMethod: method)
            if !framing.isInterim {
                finalCount += 1
            }
            let message = Transcript.Message(summary: "\(head.status)", framing: framing.body, body: [])
            return (message, framing.keepAlive, false, framing.isSwitchingProtocols, framing.isInterim)
        }
    }

    /// `analyze` returns the message, keep-alive, handoff-after-body, handoff-after-head, interim.
    private static func run<Parser: HeadFeeder>(
        _ chunks: [[UInt8]],
        finish: Bool,
        chunkedLimits: ChunkedLimits,
        parser: inout Parser,
        analyze: (Parser.Head) throws(HTTP1Error) -> (Transcript.Message, Bool, Bool, Bool, Bool)
    ) -> Transcript {
        var transcript = Transcript()
        var phase = Phase.head
        var closeAfter = false
        var stopped = false
        for chunk in chunks where !stopped {
            chunk.withUnsafeBytes { raw in
                var offset = 0
                while !stopped {
                    let rest = UnsafeRawBufferPointer(rebasing: raw[offset...])
                    switch phase {
                    case .head:
                        guard !rest.isEmpty else {
                            return
                        }
                        if closeAfter {
                            transcript.end = .dataAfterClose
                            stopped = true
                            return
                        }
                        switch parser.feed(rest) {
                        case .needMore:
                            return
                        case .error(let error):
                            transcript.end = .error(error)
                            stopped = true
                        case .complete(let head, let consumed):
                            offset += consumed
                            do throws(HTTP1Error) {
                                let (message, keepAlive, handoffAfterBody, handoffNow, interim) = try analyze(head)
                                if handoffNow || interim {
                                    transcript.messages.append(message)
                                    if handoffNow {
                                        transcript.end = .handoff
                                        stopped = true
                                    }
                                } else {
                                    phase = .body(
                                        BodyDecoder(framing: message.framing, chunkedLimits: chunkedLimits),
                                        message,
                                        keepAlive: keepAlive,
                                        handoff: handoffAfterBody
                                    )
                                }
                            } catch {
                                transcript.end = .error(error)
                                stopped = true
                            }
                        }
                    case .body(var decoder, var message, let keepAlive, let handoff):
                        switch decoder.decode(rest) {
                        case .needMore:
                            phase = .body(decoder, message, keepAlive: keepAlive, handoff: handoff)
                            transcript.pendingBody = message.body
                            return
                        case .data(let range):
                            message.body += rest[range]
                            offset += range.upperBound
                            phase = .body(decoder, message, keepAlive: keepAlive, handoff: handoff)
                            transcript.pendingBody = message.body
                        case .end(let consumed):
                            offset += consumed
                            transcript.messages.append(message)
                            transcript.pendingBody = []
                            phase = .head
                            closeAfter = !keepAlive
                            if handoff {
                                transcript.end = .handoff
                                stopped = true
                            }
                        case .error(let error):
                            transcript.end = .error(error)
                            stopped = true
                        }
                    }
                }
            }
        }
        if finish, !stopped {
            switch phase {
            case .head:
                transcript.end = .closed(parser.finish())
            case .body(var decoder, let message, _, _):
                let error = decoder.finish()
                if error == nil {
                    transcript.messages.append(message)
                    transcript.pendingBody = []
                }
                transcript.end = .closed(error)
            }
        }
        return transcript
    }
}
