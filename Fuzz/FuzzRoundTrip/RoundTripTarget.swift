import FuzzSupport
import Multipart

/// Differential test of the parser against the encoder. The same input drives both halves:
/// (a) ``EncodeParseCheck`` reads it as a recipe for a form; (b) ``FixedPointCheck`` reads it as a body.
enum RoundTripTarget {
    static func run(_ bytes: UnsafeRawBufferPointer) {
        var input = FuzzInput(bytes)
        EncodeParseCheck.run(&input)
        FixedPointCheck.run(bytes)
    }
}
