// FuzzSupport: helpers shared by the libFuzzer targets in Fuzz/ (see Fuzz/README.md).
//
// Reading structured choices from an input, recording and checking parser events, feeding a body in
// pieces, measuring what the parser holds, reading head streams, and the corpus replay driver. Depends on
// Multipart and HTTP1; imports neither Foundation nor the engine's C modules.

/// Stops the process with a message when a fuzzing invariant does not hold.
///
/// Unlike `precondition`, it is checked in every build configuration. libFuzzer reports the trap as a
/// crash and saves the input; the replay driver exits non-zero.
/// - Parameters:
///   - condition: the invariant.
///   - message: what was violated, with enough context to debug it.
@inline(__always)
public func invariant(
    _ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String,
    file: StaticString = #fileID, line: UInt = #line
) {
    if !condition() {
        fatalError("fuzz invariant violated: \(message())", file: file, line: line)
    }
}
