import Foundation
import LoopbackTestSupport
import Policy
import ProxyEngine
import Testing

/// A spooled body costs memory bounded by configuration (spool_memory, staging, watermarks), never by its
/// size: 64 MiB through 1 MiB of spool memory, to a plain upstream (sendfile) and a TLS one (read in slices).
/// Under AddressSanitizer the transfers run but RSS is not judged (see ``ResidentMemory/followsLiveMemory``).
@Suite("Spool memory", .serialized)
struct ProxySpoolMemoryTests {
    static let fileBytes = 64 << 20

    /// The peak growth of the process's RSS while one upload of `fileBytes` goes through a spool route.
    static func peakGrowth(spoolMemory: Int64, tls: Bool) throws -> (growth: Int, record: EchoRecord?) {
        let request = SpoolRequests.upload(SpoolRequests.form(fileBytes: fileBytes))
        let proxy = try SpoolProxy(route: SpoolRequests.route(.spool, spoolMemory: spoolMemory), tls: tls)
        defer { proxy.shutdown() }
        // A first small request, so connection set-up (and TLS) is not counted.
        #expect(try proxy.send(SpoolRequests.upload(SpoolRequests.form(fileBytes: 10)))?.status == 200)
        let baseline = ResidentMemory.current()
        let sampler = ResidentMemory()
        let response = try proxy.send(request)
        let peak = sampler.stop()
        #expect(response?.status == 200)
        #expect(proxy.directory.isClean)
        return (peak - baseline, proxy.recorder.records.last)
    }

    /// Each measurement runs in a child process of its own (an exit test): the suites that run alongside in this
    /// process allocate too, and on a machine with many cores (many suites at once) their memory moved this
    /// process's RSS by more than the bound judged here.
    @Test(arguments: [false, true])
    func memoryStaysBoundedWhateverTheBodySize(tls: Bool) async throws {
        await #expect(processExitsWith: .success) { [tls] in
            let (growth, record) = try ProxySpoolMemoryTests.peakGrowth(spoolMemory: 1 << 20, tls: tls)
            #expect(record?.parts.map(\.size) == [7, Int64(ProxySpoolMemoryTests.fileBytes), 16])
            #expect(record?.field("content-length") == record.map { String($0.bodyBytes) })
            if ResidentMemory.followsLiveMemory {
                #expect(growth < 32 << 20, "RSS grew by \(growth >> 20) MiB")
            }
        }
    }

    /// The contrast that shows the measurement sees a spool: a body that fits in spool_memory is held whole.
    @Test func aMemorySpoolHoldsTheWholeBody() async throws {
        await #expect(processExitsWith: .success) {
            let (growth, record) = try ProxySpoolMemoryTests.peakGrowth(spoolMemory: 128 << 20, tls: false)
            #expect(record?.parts.map(\.size) == [7, Int64(ProxySpoolMemoryTests.fileBytes), 16])
            if ResidentMemory.followsLiveMemory {
                #expect(growth > 48 << 20, "RSS grew by \(growth >> 20) MiB")
            }
        }
    }
}
