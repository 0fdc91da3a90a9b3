import ArgumentParser
import Foundation
import HTTP1
import Multipart
import Policy
import ProxyEngine

/// `partgate rewrite --config FILE [--route NAME] --request FILE [--boundary B]`: what would go upstream?
struct RewriteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rewrite",
        abstract: "Print what partgate would send upstream for a captured request, or the answer it would give.",
        discussion: """
            Runs the configuration's checks, route choice, policy and canonical encoder (the engine's own code) \
            over a raw HTTP/1.1 request in FILE (Content-Length or chunked body) and prints the upstream \
            request, head and body, to standard output; a refused request prints the problem+json response \
            the client would get instead. A re-encoded body is framed as the route's forward mode sends it \
            (spool: Content-Length; stream: Content-Length for a Content-Length body up to the route's \
            buffer_small_bodies, which the proxy sends whole when it arrived with its head, else chunked) \
            unless --framing says otherwise; chunk sizes follow this \
            tool's 64 KiB reads, not the proxy's network reads. Other bodies keep their framing. FILE is \
            read twice, in bounded memory: a first pass decides and measures, a second one prints. \
            Audit records (routes with audit: true, or --audit) go to standard error as JSON lines, and so \
            does the refusal a report_only: true route did not enforce (would_refuse). \
            Exit status: 0 forwarded, 3 refused, 1 usage, configuration or input error.
            """
    )

    @Option(name: [.customShort("c"), .long], help: "The configuration file (YAML, version: 1).")
    var config: String

    @Option(name: .long, help: "The raw HTTP/1.1 request (a regular file: it is read twice).")
    var request: String

    @Option(name: .long, help: "Use this route whatever the request's host, path and method.")
    var route: String?

    @Option(name: .long, help: "The boundary of the re-encoded body (for reproducible output; default: random).")
    var boundary: String?

    @Option(
        name: .long,
        help: "Framing of a re-encoded body: content-length or chunked (default: the route's forward mode).")
    var framing: RewriteFraming?

    @Option(name: .long, help: "The client address X-Forwarded-For ends with.")
    var client = "127.0.0.1"

    @Flag(name: .long, help: "The client connected over TLS (X-Forwarded-Proto: https).")
    var clientTLS = false

    @Flag(name: .long, help: "Print audit records for every route, not only those with audit: true.")
    var audit = false

    func run() throws {
        let boundary = try Self.boundary(boundary)
        let client = try Self.canonicalClient(client)
        try Self.checkReadableTwice(request)
        let configuration = try ConfigArgument.load(config)
        let forced = try route.map {
            try ConfigArgument.route($0, in: configuration, path: config, command: "rewrite")
        }
        let settings = RewriteSettings(
            routes: configuration.routes, headLimits: HeadLimits(configuration.limits), forcedRoute: forced,
            framing: framing, boundary: boundary, client: client, clientTLS: clientTLS, audit: audit,
            uuids: UUIDTape(), defaultHosts: RewriteSettings.defaultHosts(configuration))
        try Self.rewrite(request, settings)
    }

    /// The first pass decides (and prints the audit records); the second prints the upstream request.
    private static func rewrite(_ path: String, _ settings: RewriteSettings) throws {
        var measure = RewritePass(
            settings: settings, writer: nil,
            onAudit: { record, route in
                StandardStream.err.write(ServerLog.auditLine(record, route: route, request: "rewrite"))
            },
            onWouldRefuse: { refusal in StandardStream.err.write(ServerLog.wouldRefuseLine(refusal)) })
        let length: Int64
        let trailing: Int
        switch measure.run(try open(path)) {
        case .refused(let problem, _):
            StandardStream.out.write(String(decoding: problem.response, as: UTF8.self))
            throw ExitCode(3)
        case .truncated(let error) where error.code == .truncatedHead && error.offset == 0:
            throw usage("\(path): holds no request")
        case .truncated(let error):
            throw usage("\(path): the request ends early (\(error)); the proxy would wait for the rest")
        case .readFailed(let reason):
            throw usage("\(path): \(reason)")
        case .forwarded(_, let bodyBytes, let trailingBytes):
            length = bodyBytes
            trailing = trailingBytes
        }
        settings.uuids.rewind()
        var output = RewritePass(settings: settings, writer: UpstreamWriter(), knownLength: length)
        let outcome = output.run(try open(path))
        if let failure = output.writer?.failure { throw usage("standard output: \(failure)") }
        guard case .forwarded(_, length, _) = outcome, output.writer?.bodyBytes == length else {
            throw usage("\(path): the file changed while it was read")
        }
        if trailing > 0 {
            StandardStream.err.write(
                "partgate rewrite: note: \(trailing) bytes follow the request in \(path); the proxy would read them as the next request\n"
            )
        }
    }

    private static func open(_ path: String) throws -> InputFile {
        do {
            return try InputFile(path: path)
        } catch {
            throw usage("\(error)")
        }
    }

    /// `--boundary`, validated, or a fresh random one.
    private static func boundary(_ text: String?) throws -> Boundary {
        guard let text else { return .random() }
        guard let boundary = Boundary(text) else {
            throw usage(
                "--boundary '\(text)': not a boundary (1 to 70 of RFC 2046's characters, not ending in a space)")
        }
        return boundary
    }

    /// `--client` as the engine writes a peer address (inet_ntop's form: `::1`, not `0:0:0:0:0:0:0:1`).
    private static func canonicalClient(_ text: String) throws -> String {
        guard let literal = IPAddressLiteral(text),
            let address = SocketAddress(literal.family == .ipv6 ? "[\(text)]:0" : "\(text):0")
        else {
            throw usage("--client '\(text)': not an IP address (e.g. 127.0.0.1 or ::1)")
        }
        return address.host
    }

    /// The request must be a regular file: the first pass decides, the second prints.
    private static func checkReadableTwice(_ path: String) throws {
        guard path != "-" else {
            throw usage("--request -: standard input cannot be read twice; save the request to a file")
        }
        var status = stat()
        guard stat(path, &status) == 0 else { throw usage("\(path): \(String(cString: strerror(errno)))") }
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw usage("\(path): not a regular file (it is read twice)")
        }
    }

    /// Prints `partgate rewrite: MESSAGE` and returns the exit status for usage and input errors.
    private static func usage(_ message: String) -> ExitCode {
        StandardStream.err.write("partgate rewrite: \(message)\n")
        return ExitCode(1)
    }
}
