import CEventTLS
import Foundation
import Testing

@testable import ProxyEngine

/// ``CommonTimeouts``: one libevent common timeout per duration and base, plain `timeval`s where libevent cannot
/// take one, and events armed with them firing in the order they were armed.
@Suite struct CommonTimeoutsTests {
    @Test func oneQueuePerDuration() throws {
        let base = try #require(event_base_new())
        defer { event_base_free(base) }
        var table = CommonTimeouts()
        let second = LoopTimeout(.seconds(1))
        let first = table.time(for: second, base: base)
        let again = table.time(for: LoopTimeout(.milliseconds(1000)), base: base)
        #expect(first.tv_sec == again.tv_sec && first.tv_usec == again.tv_usec)
        // libevent marks a common timeout in the microseconds field; the plain value has none of those bits.
        #expect(first.tv_usec != second.time.tv_usec)
        #expect(first.tv_usec & 0x000f_ffff == second.time.tv_usec)
        let other = table.time(for: LoopTimeout(.milliseconds(1500)), base: base)
        #expect(other.tv_usec != first.tv_usec)
        #expect(other.tv_usec & 0x000f_ffff == 500_000)
    }

    @Test func zeroAndOverflowStayPlain() throws {
        let base = try #require(event_base_new())
        defer { event_base_free(base) }
        var table = CommonTimeouts()
        let zero = table.time(for: LoopTimeout(.zero), base: base)
        #expect(zero.tv_sec == 0 && zero.tv_usec == 0)
        for index in 0..<CommonTimeouts.limit {
            let made = table.time(for: LoopTimeout(.milliseconds(10 + index)), base: base)
            #expect(made.tv_usec & 0x000f_ffff == (10 + index) * 1000)
            #expect(made.tv_usec != (10 + index) * 1000, "duration \(index) is a common timeout")
        }
        let past = LoopTimeout(.milliseconds(9))
        let plain = table.time(for: past, base: base)
        #expect(plain.tv_sec == past.time.tv_sec && plain.tv_usec == past.time.tv_usec)
    }

    /// Three timers on one 40 ms queue: the one re-armed last fires last, and none fires early.
    @Test func eventsFireInTheOrderTheyWereArmed() throws {
        let base = try #require(event_base_new())
        defer { event_base_free(base) }
        var table = CommonTimeouts()
        var time = table.time(for: LoopTimeout(.milliseconds(40)), base: base)

        final class Fired { var order: [Int] = []; let base: OpaquePointer; init(_ base: OpaquePointer) { self.base = base } }
        let fired = Fired(base)
        let start = Date()
        var events: [OpaquePointer] = []
        var tags: [UnsafeMutablePointer<Int>] = []
        defer {
            for event in events { event_free(event) }
            for tag in tags { tag.deallocate() }
        }
        let context = Unmanaged.passUnretained(fired).toOpaque()
        for index in 0..<3 {
            let tag = UnsafeMutablePointer<Int>.allocate(capacity: 2)
            tag[0] = index
            tag[1] = Int(bitPattern: context)
            tags.append(tag)
            let made = event_new(base, -1, 0, { _, _, argument in
                let tag = argument!.assumingMemoryBound(to: Int.self)
                let fired = Unmanaged<Fired>.fromOpaque(UnsafeRawPointer(bitPattern: tag[1])!).takeUnretainedValue()
                fired.order.append(tag[0])
                if fired.order.count == 3 { _ = event_base_loopbreak(fired.base) }
            }, tag)
            let event = try #require(made)
            events.append(event)
            #expect(event_add(event, &time) == 0)
        }
        // Re-arming the first moves it to the back of the queue.
        usleep(5_000)
        #expect(event_add(events[0], &time) == 0)
        var limit = timeval(tv_sec: 2, tv_usec: 0)
        _ = event_base_loopexit(base, &limit)
        _ = event_base_dispatch(base)
        withExtendedLifetime(fired) {}
        let elapsed = Date().timeIntervalSince(start)
        #expect(fired.order == [1, 2, 0])
        #expect(elapsed >= 0.040, "no timer fired before its 40 ms")
        #expect(elapsed < 1.5, "the timers fired, not the 2 s loop exit")
    }
}
