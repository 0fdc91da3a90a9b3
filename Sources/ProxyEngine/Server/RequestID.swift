/// A request's id: the worker's random prefix and the worker's request counter, spelled `prefix-counter` (hex).
///
/// Kept as its parts: only audit and report-only lines print it, so most requests never build the string.
struct RequestID: CustomStringConvertible {
    let prefix: String
    let number: UInt64

    var description: String { prefix + "-" + String(number, radix: 16) }
}
