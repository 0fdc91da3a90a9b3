import Foundation
import NIOCore

/// parser-bench [--reps N] [--chunk BYTES] [--only partgate|multipart-kit] [--body big|small|medium]...
///
/// Parses each body with partgate's parser and with multipart-kit 4.7.1 in the same run, interleaved
/// repetition by repetition, and prints one PARSER line per parser and body (median of the repetitions)
/// and one RATIO line per body. `--only partgate --reps 1|3 --body small` is what the callgrind
/// instruction count uses (scripts/bench-parser.sh).
@main
enum ParserBench {
    static func main() {
        var reps = 5
        var chunk = 65536
        var only: String?
        var bodies: [String] = []
        var bigMiB = 256
        var arguments = CommandLine.arguments.dropFirst().makeIterator()
        while let argument = arguments.next() {
            switch argument {
            case "--reps": reps = Int(arguments.next()!)!
            case "--chunk": chunk = Int(arguments.next()!)!
            case "--only": only = arguments.next()!
            case "--body": bodies.append(arguments.next()!)
            case "--big-mib": bigMiB = Int(arguments.next()!)!
            default:
                FileHandle.standardError.write(Data("usage: parser-bench [--reps N] [--chunk B] [--only P] [--body big|small|medium] [--big-mib N]\n".utf8))
                exit(2)
            }
        }
        if bodies.isEmpty { bodies = ["big", "small", "medium"] }
        for name in bodies {
            let body: BenchBodies.Body
            switch name {
            case "big": body = BenchBodies.fileParts(name: "big-1x\(bigMiB)MiB", count: 1, size: bigMiB << 20, seed: 0x6d70_6265_6e63_6831)
            case "small": body = BenchBodies.smallParts(count: 10_000)
            case "medium": body = BenchBodies.fileParts(name: "medium-100x1MiB", count: 100, size: 1 << 20, seed: 0x6d70_6265_6e63_6833)
            default: fatalError("unknown body \(name)")
            }
            measure(body, reps: reps, chunk: chunk, only: only)
        }
    }

    static func measure(_ body: BenchBodies.Body, reps: Int, chunk: Int, only: String?) {
        var buffer = ByteBufferAllocator().buffer(capacity: body.bytes.count)
        buffer.writeBytes(body.bytes)
        var times: [String: [Double]] = [:]
        let parsers: [String] = ["partgate", "multipart-kit"].filter { only == nil || only == $0 }
        for _ in 0..<reps {
            for parser in parsers {
                let start = DispatchTime.now().uptimeNanoseconds
                let result = parser == "partgate"
                    ? PartgateRunner.run(body.bytes, chunk: chunk)
                    : MultipartKitRunner.run(buffer, chunk: chunk)
                let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
                precondition(result.parts == body.parts, "\(parser): \(result.parts) parts, expected \(body.parts)")
                precondition(result.bodyBytes == body.dataBytes, "\(parser): \(result.bodyBytes) body bytes, expected \(body.dataBytes)")
                times[parser, default: []].append(seconds)
            }
        }
        var medians: [String: Double] = [:]
        for parser in parsers {
            let sorted = times[parser]!.sorted()
            let median = sorted[sorted.count / 2]
            medians[parser] = median
            print("PARSER body=\(body.name) parser=\(parser) bytes=\(body.bytes.count) parts=\(body.parts) chunk=\(chunk) "
                + "reps=\(reps) median_s=\(fixed(median, 4)) min_s=\(fixed(sorted.first!, 4)) max_s=\(fixed(sorted.last!, 4)) "
                + "GB_per_s=\(fixed(Double(body.bytes.count) / median / 1e9, 3)) parts_per_s=\(fixed(Double(body.parts) / median, 0))")
        }
        if let ours = medians["partgate"], let theirs = medians["multipart-kit"] {
            print("RATIO body=\(body.name) partgate/multipart-kit speed=\(fixed(theirs / ours, 2))")
        }
    }

    static func fixed(_ value: Double, _ digits: Int) -> String {
        String(format: "%.\(digits)f", value)
    }
}
