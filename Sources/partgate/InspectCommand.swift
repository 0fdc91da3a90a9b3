import ArgumentParser
import Foundation
import Multipart
import Policy

/// `partgate inspect [--content-type CT] [--request] [FILE|-]`: what is in this body?
struct InspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Print one JSON object per part of a multipart/form-data body, then a summary.",
        discussion: """
            Reads a body (or, with --request, a raw HTTP/1.1 request: head and body, Content-Length or chunked) \
            from FILE or standard input, streaming. Each part: index, name, filename, declared_type, \
            sniffed_type, size, sha256. The summary: parts, violations (flag, part, offset), valid. \
            Exit status: 0 well-formed, 2 rejected (one line on stderr names the flag), 1 usage or I/O error.
            """
    )

    @Option(name: .long, help: "The request Content-Type (default: the boundary on the body's first line).")
    var contentType: String?

    @Flag(name: .long, help: "The input is a whole HTTP/1.1 request, not just a body.")
    var request = false

    @Option(name: .customLong("strict"), help: "Override a strict flag, e.g. lf_line=normalize (repeatable).")
    var strict: [String] = []

    @Option(name: .long, help: "A configuration file: with --route, read as that route reads (its strict flags and limits).")
    var config: String?

    @Option(name: .long, help: "The route of --config whose strict flags and limits apply (--strict overrides them).")
    var route: String?

    @Argument(help: "The input file, or - for standard input.")
    var file: String = "-"

    func validate() throws {
        if request && contentType != nil {
            throw ValidationError("--content-type and --request exclude each other: a request carries its own")
        }
        if (config == nil) != (route == nil) {
            throw ValidationError("--config and --route go together: the route whose strict flags and limits apply")
        }
        _ = try strictness(base: Strictness())
    }

    /// The route named by --route in --config, or nil without them; exits 1 with the loader's diagnostics.
    private func configuredRoute() throws -> RouteConfiguration? {
        guard let config, let route else { return nil }
        return try ConfigArgument.route(
            route, in: try ConfigArgument.load(config), path: config, command: "inspect")
    }

    func run() throws {
        let input: InputFile
        do {
            input = try InputFile(path: file)
        } catch {
            StandardStream.err.write("partgate inspect: \(error)\n")
            throw ExitCode(1)
        }
        let route = try configuredRoute()
        var inspection = Inspection(
            strictness: try strictness(base: route?.strictness ?? Strictness()),
            limits: route?.limits.multipartLimits ?? MultipartLimits(), contentType: contentType,
            output: StandardStream.out)
        let outcome = request ? inspection.runRequest(input) : inspection.runBody(input)
        switch outcome {
        case .valid:
            return
        case .rejected(let reason):
            StandardStream.err.write("partgate inspect: rejected: \(reason)\n")
            throw ExitCode(2)
        case .failed(let reason):
            StandardStream.err.write("partgate inspect: \(reason)\n")
            throw ExitCode(1)
        }
    }

    private func strictness(base: Strictness) throws -> Strictness {
        var result = base
        var overrides: [StrictFlag: StrictAction] = [:]
        for item in strict {
            let pieces = item.split(separator: "=", maxSplits: 1).map(String.init)
            guard pieces.count == 2, let flag = StrictFlag(rawValue: pieces[0]) else {
                throw ValidationError("--strict \(item): expected FLAG=ACTION with FLAG one of "
                    + StrictFlag.allCases.map(\.rawValue).joined(separator: ", "))
            }
            guard let action = StrictAction(rawValue: pieces[1]) else {
                throw ValidationError("--strict \(item): ACTION must be reject, normalize or allow")
            }
            overrides[flag] = action
        }
        do {
            for (flag, action) in overrides { try result.setAction(action, for: flag) }
            return result
        } catch {
            throw ValidationError("--strict: \(error)")
        }
    }
}
