#if !FUZZING
import FuzzSupport

/// Replays corpus files (build C, a plain `swift build`); compiled out when libFuzzer supplies `main`.
@main
enum ReplayMain {
    static func main() {
        ReplayDriver.main(name: "FuzzPolicy", PolicyTarget.run)
    }
}
#endif
