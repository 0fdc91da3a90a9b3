import Testing

@testable import ProxyEngine

/// The token bucket behind `max_upstream_rate`: full at the start, a tenth of the rate per 100 ms tick, never more
/// than a tick's worth, and a debt (a `sendfile` chain larger than the bucket) paid by the ticks after it.
@Suite("Upstream rate limit bucket")
struct UpstreamRateLimitTests {
    static let start: Int64 = 10_000  // a tick boundary

    @Test func aBucketStartsFullAndRefillsATickAtATime() throws {
        var bucket = try #require(UpstreamRateLimit(bytesPerSecond: 10_000, now: Self.start))
        #expect(bucket.bytesPerTick == 1_000)
        #expect(bucket.available(now: Self.start) == 1_000)
        bucket.spend(700)
        #expect(bucket.available(now: Self.start + 99) == 300)  // the same tick: no refill
        bucket.spend(300)
        #expect(bucket.available(now: Self.start + 99) == 0)
        #expect(bucket.untilNextTick(now: Self.start + 99) == 1)
        #expect(bucket.available(now: Self.start + 100) == 1_000)
        // Idle ticks do not add up past one tick's worth.
        #expect(bucket.available(now: Self.start + 5_000) == 1_000)
    }

    @Test func aDebtIsPaidByTheNextTicks() throws {
        var bucket = try #require(UpstreamRateLimit(bytesPerSecond: 10_000, now: Self.start))
        bucket.spend(3_000)  // a chain three times the bucket, written whole
        #expect(bucket.available(now: Self.start + 1) == -2_000)
        #expect(bucket.available(now: Self.start + 100) == -1_000)
        #expect(bucket.available(now: Self.start + 250) == 0)
        #expect(bucket.available(now: Self.start + 300) == 1_000)
    }

    @Test func theWaitIsToTheNextTickBoundary() throws {
        let bucket = try #require(UpstreamRateLimit(bytesPerSecond: 1, now: 1_234))
        #expect(bucket.bytesPerTick == 1)  // a rate below ten bytes a second still moves
        #expect(bucket.untilNextTick(now: 1_234) == 66)
        #expect(bucket.untilNextTick(now: 1_200) == 100)
    }

    @Test func noRateIsNoBucket() {
        #expect(UpstreamRateLimit(bytesPerSecond: 0, now: 0) == nil)
        #expect(UpstreamRateLimit(bytesPerSecond: -5, now: 0) == nil)
    }
}
