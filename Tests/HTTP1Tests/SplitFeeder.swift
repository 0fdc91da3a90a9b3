import Testing

/// Feeds one input whole, byte by byte, and split in two at every offset, and checks that every
/// feeding gives the same result (the role of swift-nio's ByteToMessageDecoderVerifier).
enum SplitFeeder {
    /// Every way this helper splits `bytes`: whole, byte by byte, then `[0..<k, k..<n]` for each k.
    static func plans(_ bytes: [UInt8]) -> [[[UInt8]]] {
        var plans: [[[UInt8]]] = [[bytes]]
        if bytes.count > 1 {
            plans.append(bytes.map { [$0] })
            for cut in 1..<bytes.count {
                plans.append([Array(bytes[..<cut]), Array(bytes[cut...])])
            }
        }
        return plans
    }

    /// Runs `body` on every plan and expects identical results.
    /// - Returns: The result for the whole input.
    @discardableResult
    static func verify<Result: Equatable>(
        _ bytes: [UInt8],
        sourceLocation: SourceLocation = #_sourceLocation,
        _ body: ([[UInt8]]) -> Result
    ) -> Result {
        let allPlans = plans(bytes)
        let whole = body(allPlans[0])
        for plan in allPlans.dropFirst() {
            let result = body(plan)
            if result != whole {
                Issue.record(
                    "split \(plan.map(\.count)) gave \(result), whole input gave \(whole)",
                    sourceLocation: sourceLocation
                )
                break
            }
        }
        return whole
    }
}

extension Array where Element == UInt8 {
    /// The UTF-8 bytes of `string`.
    init(_ string: String) {
        self = Array(string.utf8)
    }
}
