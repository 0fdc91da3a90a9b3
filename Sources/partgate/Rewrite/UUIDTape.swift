import Policy
import Synchronization

/// The `{uuid}` values of `partgate rewrite`'s two passes over a request: fresh random ones in the first
/// (recorded), the same ones again in the second, so the body printed is the body that was measured and
/// audited.
final class UUIDTape: Sendable {
    private struct State {
        var values: [String] = []
        var next = 0
        var replaying = false
    }

    private let state = Mutex(State())

    /// The next value: a new random UUID while recording, the recorded one while replaying.
    @Sendable func make() -> String {
        state.withLock { state in
            if state.replaying, state.next < state.values.count {
                defer { state.next += 1 }
                return state.values[state.next]
            }
            let value = RandomUUID.make()
            state.values.append(value)
            state.next = state.values.count
            return value
        }
    }

    /// Replays the recorded values from the first one.
    func rewind() {
        state.withLock { state in
            state.replaying = true
            state.next = 0
        }
    }
}
