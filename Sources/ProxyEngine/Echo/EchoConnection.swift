import CEventTLS
import HTTP1
import Multipart
import Policy

/// One connection to the ``EchoUpstream``.
final class EchoConnection: LoopResource {
    private let server: EchoUpstream
    private var bev: OpaquePointer?
    private var selfRef: Unmanaged<EchoConnection>?
    private var heads = RequestHeadParser()
    private var head: RequestHead?
    private var decoder: BodyDecoder?
    private var parser: MultipartParser?
    private var inspector = PartInspector<SHA256Digest>()
    private var parts: [EchoPart] = []
    private var boundary: String?
    private var bodyBytes: Int64 = 0
    private let bodyDigest = SHA256Digest()
    private var error: String?
    /// Requests completed on this connection.
    private var completed = 0

    init?(server: EchoUpstream, descriptor: Int32) {
        self.server = server
        let options = BufferEventOptions.standard
        let base = server.loop.base
        if let tls = server.tls, let ssl = tls.makeServerSSL() {
            bev = bufferevent_openssl_socket_new(base, descriptor, ssl, BUFFEREVENT_SSL_ACCEPTING, options)
            if let bev { bufferevent_openssl_set_allow_dirty_shutdown(bev, 1) }
        } else {
            bev = bufferevent_socket_new(base, descriptor, options)
        }
        guard let bev else { return nil }
        let ref = Unmanaged.passRetained(self)
        selfRef = ref
        bufferevent_setcb(bev, { _, context in
            Unmanaged<EchoConnection>.fromOpaque(context!).takeUnretainedValue().readable()
        }, nil, { _, what, context in
            let connection = Unmanaged<EchoConnection>.fromOpaque(context!).takeUnretainedValue()
            if Int32(what) & Int32(BEV_EVENT_CONNECTED) == 0 { connection.close() }
        }, ref.toOpaque())
        _ = bufferevent_enable(bev, ev(EV_READ | EV_WRITE))
        server.loop.register(self)
    }

    private func readable() {
        guard let bev else { return }
        let input: OpaquePointer = bufferevent_get_input(bev)
        while let chain = EvBuffer.firstChain(input) {
            if head == nil {
                switch heads.feed(chain) {
                case .needMore:
                    EvBuffer.drain(input, chain.count)
                case .error(let error):
                    respond(status: 400, body: "{\"error\":\"\(error.code.name)\"}", close: true)
                    return
                case .complete(let head, let consumed):
                    EvBuffer.drain(input, consumed)
                    begin(head)
                }
                continue
            }
            guard consumeBody(chain, input) else { return }
        }
        if head != nil, let decoder, decoder.isComplete {
            _ = consumeBody(UnsafeRawBufferPointer(start: nil, count: 0), input)
        }
    }

    private func begin(_ head: RequestHead) {
        self.head = head
        let framing = (try? RequestFraming(analyzing: head))?.body ?? .none
        decoder = BodyDecoder(framing: framing)
        if let contentType = head["content-type"], let parsed = try? MultipartContentType.parse(contentType) {
            boundary = parsed.boundary.description
            parser = MultipartParser(boundary: parsed.boundary, limits: MultipartLimits(parts: 100_000, fieldBytes: 1 << 40))
        }
    }

    /// Feeds one chain of body; false when the request was answered.
    private func consumeBody(_ chain: UnsafeRawBufferPointer, _ input: OpaquePointer) -> Bool {
        var position = 0
        while true {
            let rest = chain.isEmpty ? chain : UnsafeRawBufferPointer(rebasing: chain[position...])
            switch decoder!.decode(rest) {
            case .needMore:
                EvBuffer.drain(input, chain.count)
                return true
            case .data(let range):
                let data = UnsafeRawBufferPointer(rebasing: rest[range])
                bodyBytes += Int64(data.count)
                bodyDigest.update(data)
                if error == nil, parser != nil {
                    do {
                        try parser!.parse(data, into: &inspector)
                    } catch {
                        self.error = error.name
                    }
                    collectParts()
                }
                position += range.upperBound
            case .end(let framing):
                EvBuffer.drain(input, position + framing)
                finishRequest()
                return head == nil
            case .error(let error):
                respond(status: 400, body: "{\"error\":\"\(error.code.name)\"}", close: true)
                return false
            }
        }
    }

    private func collectParts() {
        for part in inspector.takeCompleted() {
            parts.append(EchoPart(name: part.name, filename: part.filename, contentType: part.declaredType,
                                  size: part.size, sha256: part.digest.hexString))
        }
    }

    private func finishRequest() {
        guard let head else { return }
        if error == nil, parser != nil {
            do {
                try parser!.finish(into: &inspector)
            } catch {
                self.error = error.name
            }
            collectParts()
        }
        completed += 1
        let ssl = bev.flatMap { bufferevent_openssl_get_ssl($0) }
        let record = EchoRecord(
            method: head.method, target: head.target.string, fields: head.fields.map { ($0.name, $0.value) },
            boundary: boundary, parts: parts, bodyBytes: bodyBytes, bodySHA256: bodyDigest.finalize().hexString,
            error: error, connectionRequest: completed, tlsSessionReused: ssl.map { SSL_session_reused($0) == 1 })
        server.onRequest(record)
        var json = JSONObjectWriter()
        json.add("method", record.method)
        json.add("target", record.target)
        json.add("boundary", record.boundary)
        json.add("body_bytes", record.bodyBytes)
        json.add("body_sha256", record.bodySHA256)
        json.add("parts", objects: record.parts.map { part in
            var object = JSONObjectWriter()
            object.add("name", part.name)
            object.add("filename", part.filename)
            object.add("type", part.contentType)
            object.add("size", part.size)
            object.add("sha256", part.sha256)
            return object
        })
        if let error = record.error { json.add("error", error) }
        let keepAlive = (try? RequestFraming(analyzing: head))?.keepAlive ?? false
        respond(status: error == nil ? 200 : 400, body: json.finished + "\n", close: !keepAlive,
                withoutBody: head.method == "HEAD")
        self.head = nil
        decoder = nil
        parser = nil
        inspector = PartInspector()
        parts = []
        boundary = nil
        bodyBytes = 0
        error = nil
    }

    /// Sends the response; `withoutBody` (an answer to HEAD) keeps the Content-Length the body would have.
    private func respond(status: Int, body: String, close: Bool, withoutBody: Bool = false) {
        guard let bev else { return }
        let head = "HTTP/1.1 \(status) \(status == 200 ? "OK" : "Bad Request")\r\nContent-Type: application/json\r\n"
            + "Content-Length: \(body.utf8.count)\r\n\(close ? "Connection: close\r\n" : "")\r\n"
        EvBuffer.add(bufferevent_get_output(bev), Array((withoutBody ? head : head + body).utf8))
        if close {
            bufferevent_setcb(bev, nil, { _, context in
                Unmanaged<EchoConnection>.fromOpaque(context!).takeUnretainedValue().close()
            }, { _, _, context in
                Unmanaged<EchoConnection>.fromOpaque(context!).takeUnretainedValue().close()
            }, selfRef!.toOpaque())
            self.head = nil
        }
    }

    func close() {
        guard let bev else { return }
        bufferevent_free(bev)
        self.bev = nil
        server.loop.unregister(self)
        let ref = selfRef
        selfRef = nil
        ref?.release()
    }
}
