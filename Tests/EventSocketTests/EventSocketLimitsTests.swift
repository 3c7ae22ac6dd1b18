#if canImport(Glibc)
import Glibc
#endif
import InputModel
import Inputs
import LinuxSys
import Logging
import Pipeline
import SystemPackage
import Testing

@testable import EventSocket

/// What bounds the sink's work and memory, whatever its clients do: how many it takes, how much a
/// slow reader's queue holds; and what it tells after a reload that was taken back.
@Suite struct EventSocketLimitsTests {
    /// One client more than the sink takes is told so and closed; once one leaves, another is taken.
    @Test func oneClientTooManyIsToldSoAndClosed() throws {
        let place = try EventSocketSink.simulationPath()
        let sink = try EventSocketSink(
            path: place.path, ownDirectory: place.directory, inputs: [EventSocketSinkTests.bell], version: "test", maximumClients: 2, logger: Logger(label: "test"))
        sink.start(linesPressed: [false], levels: [.high], atNs: 0)
        let first = try EventSocketSinkTests.connect(sink)
        _ = try EventSocketSinkTests.connect(sink)
        let third = try EventSocketSinkTests.connect(sink)
        #expect(try EventSocketSinkTests.next(third) == #"{"event":"error","message":"the daemon has 2 clients, the most it takes: try again when one has left"}"#)
        #expect(try third.nextLine() == nil)
        #expect(try EventSocketSinkTests.next(first).hasPrefix(#"{"event":"hello""#))
        Glibc.close(first.descriptor)
        sink.descriptorReady(0, events: PollEvents(rawValue: 1))
        let fourth = try EventSocketSinkTests.connect(sink)
        #expect(try EventSocketSinkTests.next(fourth).hasPrefix(#"{"event":"hello""#))
    }

    /// A reader a little slower than the lines come: its queue holds what waits and at most 64 KiB it
    /// has read, however long it goes on (it grew by every line sent before).
    @Test func aSlowReadersQueueHoldsWhatWaitsNotWhatItRead() throws {
        var ends: [Int32] = [0, 0]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0, &ends) == 0)
        defer { Glibc.close(ends[1]) }
        let client = EventSocketClient(socket: OwnedDescriptor(FileDescriptor(rawValue: ends[0])))
        let line = [UInt8](repeating: UInt8(ascii: "x"), count: 199) + [UInt8(ascii: "\n")]
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var largest = 0
        for _ in 0..<400 {
            for _ in 0..<100 { client.enqueue(line) }  // 20 KB a round
            try client.send()
            largest = max(largest, client.queuedBytes)
            _ = read(ends[1], &buffer, 16 * 1024)  // the reader takes 16 KiB a round: less than comes
        }
        #expect(largest <= EventSocketClient.queueLimitBytes + EventSocketClient.compactionBytes + 64 * 1024, "largest queue \(largest) bytes after 8 MB")
    }

    /// After a reload that failed and was taken back, the sink takes the configuration before again
    /// without telling its clients of a reload; the next real one is told.
    @Test func aReloadTakenBackIsNoReload() throws {
        let sink = try EventSocketSinkTests.sink()
        sink.start(linesPressed: [false, false], levels: [.high, .high], atNs: 0)
        let reader = try EventSocketSinkTests.connect(sink)
        for _ in 0..<3 { _ = try EventSocketSinkTests.next(reader) }
        sink.reloadRefused("it failed", rollingBack: true)
        sink.adopt([EventSocketSinkTests.bell, EventSocketSinkTests.door])
        sink.adopt([EventSocketSinkTests.bell])
        try sink.advance(toNs: 20)
        #expect(try EventSocketSinkTests.next(reader) == #"{"event":"reloaded","added":[],"removed":["door"],"seq":1}"#)
    }

    /// A control client's `hello` says no state lines follow.
    @Test func aControlClientsHelloCountsNoStateLines() throws {
        let sink = try EventSocketSinkTests.sink()
        let control = try EventSocketConnection(path: sink.controlPath)
        sink.descriptorReady(0, events: PollEvents(rawValue: 1))
        try sink.advance(toNs: 5)
        #expect(try EventSocketSinkTests.next(control).contains(#""inputs":0,"#))
    }
}
