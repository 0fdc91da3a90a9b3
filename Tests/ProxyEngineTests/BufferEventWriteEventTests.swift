import CEventTLS
import Foundation
import Testing

/// `cshim_bufferevent_write_event` computes the address of a bufferevent's write event from the public
/// layout of `struct bufferevent`; the upstream write path activates that event. Here the address is checked
/// against the events the base itself lists, for a plain and an OpenSSL socket bufferevent.
@Suite struct BufferEventWriteEventTests {
    @Test(arguments: [false, true])
    func theComputedEventIsTheBuffereventsWriteEvent(tls: Bool) throws {
        guard let base = event_base_new() else { Issue.record("event_base_new failed"); return }
        defer { event_base_free(base) }
        var pair: [Int32] = [-1, -1]
        try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0)
        defer { close(pair[1]) }
        _ = evutil_make_socket_nonblocking(pair[0])
        let options = Int32(bitPattern: BEV_OPT_CLOSE_ON_FREE.rawValue)
        let bev: OpaquePointer
        if tls {
            let context = try #require(SSL_CTX_new(TLS_client_method()))
            defer { SSL_CTX_free(context) }
            let ssl = try #require(SSL_new(context))
            bev = try #require(bufferevent_openssl_socket_new(base, pair[0], ssl, BUFFEREVENT_SSL_CONNECTING, options))
        } else {
            bev = try #require(bufferevent_socket_new(base, pair[0], options))
            _ = bufferevent_enable(bev, Int16(EV_READ | EV_WRITE))
            _ = bufferevent_write(bev, "x", 1)  // arms the write event
        }
        defer { bufferevent_free(bev) }

        let computed = try #require(cshim_bufferevent_write_event(bev))
        #expect(event_get_fd(computed) == pair[0])
        #expect(Int32(event_get_events(computed)) & EV_WRITE != 0)
        #expect(Int32(event_get_events(computed)) & EV_READ == 0)

        // The base's own list of added events: exactly one write event of this bufferevent, at that address.
        final class Found { var writeEvents: [OpaquePointer] = []; let owner: UnsafeMutableRawPointer; init(_ o: UnsafeMutableRawPointer) { owner = o } }
        let found = Found(UnsafeMutableRawPointer(bev))
        _ = withExtendedLifetime(found) {
            event_base_foreach_event(base, { _, event, context in
                let found = Unmanaged<Found>.fromOpaque(context!).takeUnretainedValue()
                if let event, event_get_callback_arg(event) == found.owner, Int32(event_get_events(event)) & EV_WRITE != 0 {
                    found.writeEvents.append(event)
                }
                return 0
            }, Unmanaged.passUnretained(found).toOpaque())
        }
        #expect(found.writeEvents == [computed])
    }

    /// An object that is not a bufferevent's start is refused rather than activated.
    @Test func aMismatchedEventIsNotReturned() throws {
        guard let base = event_base_new() else { Issue.record("event_base_new failed"); return }
        defer { event_base_free(base) }
        let bev = try #require(bufferevent_socket_new(base, -1, 0))
        defer { bufferevent_free(bev) }
        // A bufferevent without a socket still has its events assigned, so the lookup succeeds ...
        #expect(cshim_bufferevent_write_event(bev) != nil)
        // ... and memory that does not start like one fails the check.
        let bytes = UnsafeMutableRawPointer.allocate(byteCount: 4096, alignment: 16)
        defer { bytes.deallocate() }
        bytes.initializeMemory(as: UInt8.self, repeating: 0, count: 4096)
        #expect(cshim_bufferevent_write_event(OpaquePointer(bytes)) == nil)
        #expect(cshim_bufferevent_write_now(OpaquePointer(bytes)) == -1)
    }
}
