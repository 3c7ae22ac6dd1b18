#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CAvahi
import Testing

@testable import ServiceAdvertisement

/// avahi's event-loop table on ours, driven as avahi's client library drives it: watches called when
/// their descriptor is ready (and only for what they want), timeouts called once when due, and either
/// freed from inside its own callback.
@Suite struct AvahiLoopPollTests {
    /// What the callbacks saw (their `userdata`).
    final class Calls {
        var watchEvents: [UInt32] = []
        var timeouts = 0
        /// Frees the watch or timeout from inside its callback, as avahi may.
        var freeInCallback = false
        var api: UnsafeMutablePointer<AvahiPoll>?
    }

    static let watchCallback: AvahiWatchCallback = { watch, _, event, userdata in
        let calls = Unmanaged<Calls>.fromOpaque(userdata!).takeUnretainedValue()
        calls.watchEvents.append(event.rawValue)
        if calls.freeInCallback { calls.api!.pointee.watch_free(watch) }
    }

    static let timeoutCallback: AvahiTimeoutCallback = { timeout, userdata in
        let calls = Unmanaged<Calls>.fromOpaque(userdata!).takeUnretainedValue()
        calls.timeouts += 1
        if calls.freeInCallback { calls.api!.pointee.timeout_free(timeout) }
    }

    static func pipe() -> (read: Int32, write: Int32) {
        var ends: [Int32] = [0, 0]
        #expect(Glibc.pipe(&ends) == 0)
        return (ends[0], ends[1])
    }

    @Test func aWatchIsCalledWhenItsDescriptorIsReadableAndNotBefore() throws {
        let poll = try AvahiLoopPoll()
        let calls = Calls()
        let (readEnd, writeEnd) = Self.pipe()
        defer { close(readEnd); close(writeEnd) }
        let watch = poll.api.pointee.watch_new(poll.api, readEnd, AVAHI_WATCH_IN, Self.watchCallback, Unmanaged.passUnretained(calls).toOpaque())
        #expect(watch != nil)
        poll.noteReady()
        poll.dispatch()
        #expect(calls.watchEvents.isEmpty)
        #expect(write(writeEnd, "x", 1) == 1)
        poll.noteReady()
        poll.dispatch()
        #expect(calls.watchEvents == [AVAHI_WATCH_IN.rawValue])
        poll.api.pointee.watch_free(watch)
        poll.noteReady()
        poll.dispatch()
        #expect(calls.watchEvents.count == 1)
    }

    @Test func aWatchThatWantsOnlyWritingIsNotCalledForReading() throws {
        let poll = try AvahiLoopPoll()
        let calls = Calls()
        let (readEnd, writeEnd) = Self.pipe()
        defer { close(readEnd); close(writeEnd) }
        let watch = poll.api.pointee.watch_new(poll.api, writeEnd, AvahiWatchEvent(0), Self.watchCallback, Unmanaged.passUnretained(calls).toOpaque())
        poll.noteReady()
        poll.dispatch()
        #expect(calls.watchEvents.isEmpty)
        poll.api.pointee.watch_update(watch, AVAHI_WATCH_OUT)
        poll.noteReady()
        poll.dispatch()
        #expect(calls.watchEvents == [AVAHI_WATCH_OUT.rawValue])
        poll.api.pointee.watch_free(watch)
    }

    @Test func aWatchFreedInItsCallbackIsNeverCalledAgain() throws {
        let poll = try AvahiLoopPoll()
        let calls = Calls()
        calls.freeInCallback = true
        calls.api = poll.api
        let (readEnd, writeEnd) = Self.pipe()
        defer { close(readEnd); close(writeEnd) }
        _ = poll.api.pointee.watch_new(poll.api, readEnd, AVAHI_WATCH_IN, Self.watchCallback, Unmanaged.passUnretained(calls).toOpaque())
        #expect(write(writeEnd, "x", 1) == 1)
        for _ in 0..<3 {
            poll.noteReady()
            poll.dispatch()
        }
        #expect(calls.watchEvents.count == 1)
    }

    @Test func aTimeoutFiresOnceWhenDueAndIsTheDeadlineUntilThen() throws {
        let poll = try AvahiLoopPoll()
        let calls = Calls()
        var now = timeval()
        gettimeofday(&now, nil)
        var later = now
        later.tv_sec += 60
        let timeout = poll.api.pointee.timeout_new(poll.api, &later, Self.timeoutCallback, Unmanaged.passUnretained(calls).toOpaque())
        let wait = try #require(poll.nanosecondsToNextTimeout)
        #expect(wait > 59_000_000_000 && wait <= 60_000_000_000)
        poll.dispatch()
        #expect(calls.timeouts == 0)
        poll.api.pointee.timeout_update(timeout, &now)
        #expect(poll.nanosecondsToNextTimeout == 0)
        poll.dispatch()
        poll.dispatch()
        #expect(calls.timeouts == 1)
        #expect(poll.nanosecondsToNextTimeout == nil)
        poll.api.pointee.timeout_update(timeout, nil)
        #expect(poll.nanosecondsToNextTimeout == nil)
        poll.api.pointee.timeout_free(timeout)
    }

    @Test func aTimeoutFreedInItsCallbackLeavesNoDeadline() throws {
        let poll = try AvahiLoopPoll()
        let calls = Calls()
        calls.freeInCallback = true
        calls.api = poll.api
        var now = timeval()
        gettimeofday(&now, nil)
        _ = poll.api.pointee.timeout_new(poll.api, &now, Self.timeoutCallback, Unmanaged.passUnretained(calls).toOpaque())
        poll.dispatch()
        poll.dispatch()
        #expect(calls.timeouts == 1)
        #expect(poll.nanosecondsToNextTimeout == nil)
    }
}
