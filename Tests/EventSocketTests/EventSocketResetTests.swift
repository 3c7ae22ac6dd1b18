#if canImport(Glibc)
import Glibc
#endif
import DebounceCore
import EventLoop
import InputModel
import Inputs
import LinuxSys
import Pipeline
import Testing

@testable import EventSocket

/// A control client's `reset`, as the loop drives the sink: the request becomes a command for the
/// pipeline (`takeCommands`), the output it makes answers the client and reaches every events client,
/// and what cannot be reset is refused with what can.
@Suite struct EventSocketResetTests {
    static let bell = ButtonPresenter(name: "bell", input: 0, chip: "sim", line: 17, lineIndex: 0, gestures: [.press])
    static let energy = CounterPresenter(
        name: "energy", input: 1, chip: "sim", line: 24, lineIndex: 1, perUnit: 1000, unit: "kWh", deviceClass: "energy", startTotal: 40_000, publishIntervalNs: 0)
    static let volume = EncoderPresenter(name: "volume", input: 2, chip: "sim", lines: [5, 6], lineIndices: [2, 3], resetPosition: 50)

    static func sink() throws -> EventSocketSink { try EventSocketSinkTests.sink([bell, energy, volume]) }

    /// A control client, greeted.
    static func control(_ sink: EventSocketSink) throws -> EventSocketConnection {
        let control = try EventSocketConnection(path: sink.controlPath)
        sink.descriptorReady(0, events: PollEvents(rawValue: 1))
        try sink.advance(toNs: 5)
        #expect(try EventSocketSinkTests.next(control).hasPrefix(#"{"event":"hello""#))
        return control
    }

    @Test func aResetBecomesACommandAndItsEventAnswersTheClientAndReachesTheOthers() throws {
        let sink = try Self.sink()
        sink.start(linesPressed: [false, false, nil, nil], levels: [.high, .high, .high, .high], atNs: 0)
        let reader = try EventSocketSinkTests.connect(sink)
        for _ in 0..<4 { _ = try EventSocketSinkTests.next(reader) }  // hello and the three states
        let control = try Self.control(sink)
        #expect(sink.takeCommands().isEmpty)
        try control.send(#"{"request":"reset","input":"energy","to":41000}"#)
        try control.send(#"{"request":"reset","input":"volume"}"#)
        sink.descriptorReady(0, events: PollEvents(rawValue: 1))
        #expect(sink.takeCommands() == [.reset(input: 1, to: 41000), .reset(input: 2, to: 50)], "without a value: the input's own (the encoder's reset_to:)")
        #expect(sink.takeCommands().isEmpty, "taken once")
        // What the pipeline makes of them, as the loop hands it on in the same wakeup.
        try sink.consume(.totalReset(OutputSource(input: 1, line: 1), CounterReading(rate: 0, ratePerMinute: 0, timeNs: 30, total: 41000)), nowNs: 30)
        try sink.consume(.positionReset(OutputSource(input: 2, line: 2), position: 50, atNs: 30), nowNs: 30)
        try sink.advance(toNs: 30)
        let counterLine = #"{"event":"reset","total":41000,"value":41,"time_ns":30,"counter":"energy","chip":"sim","line":24,"input":"energy","kind":"counter","seq":1}"#
        #expect(try EventSocketSinkTests.next(control) == counterLine)
        #expect(try EventSocketSinkTests.next(control).hasPrefix(#"{"event":"reset","position":50,"time_ns":30,"encoder":"volume""#))
        #expect(try EventSocketSinkTests.next(reader) == counterLine, "every events client gets the reset as an event")
        #expect(try EventSocketSinkTests.next(reader).contains(#""input":"energy","kind":"counter","available":true,"state":{"total":41000,"#), "then the state it left")
    }

    @Test(arguments: [
        (#"{"request":"reset","input":"bell"}"#, "bell is a button, which has nothing to reset: the inputs that can be reset are energy, volume"),
        (#"{"request":"reset","input":"meter"}"#, #"no input named \"meter\": the inputs are bell, energy, volume"#),
    ])
    func whatCannotBeResetIsRefusedWithWhatCan(request: String, message: String) throws {
        let sink = try Self.sink()
        sink.start(linesPressed: [false, false, nil, nil], levels: [.high, .high, .high, .high], atNs: 0)
        let control = try Self.control(sink)
        try control.send(request)
        sink.descriptorReady(0, events: PollEvents(rawValue: 1))
        #expect(sink.takeCommands().isEmpty)
        #expect(try EventSocketSinkTests.next(control) == #"{"event":"error","message":"\#(message)"}"#)
    }

    @Test func aRunWithNothingToResetSaysWhatCouldBe() throws {
        let sink = try EventSocketSinkTests.sink([Self.bell])
        sink.start(linesPressed: [false], levels: [.high], atNs: 0)
        let control = try Self.control(sink)
        try control.send(#"{"request":"reset","input":"bell"}"#)
        sink.descriptorReady(0, events: PollEvents(rawValue: 1))
        #expect(sink.takeCommands().isEmpty)
        #expect(try EventSocketSinkTests.next(control) == #"{"event":"error","message":"bell is a button, which has nothing to reset, nor has any other input of this run"}"#)
    }

    @Test func theEventsSocketRefusesAReset() throws {
        let sink = try Self.sink()
        sink.start(linesPressed: [false, false, nil, nil], levels: [.high, .high, .high, .high], atNs: 0)
        let reader = try EventSocketSinkTests.connect(sink)
        for _ in 0..<4 { _ = try EventSocketSinkTests.next(reader) }
        try reader.send(#"{"request":"reset","input":"energy"}"#)
        sink.descriptorReady(0, events: PollEvents(rawValue: 1))
        #expect(sink.takeCommands().isEmpty)
        #expect(try EventSocketSinkTests.next(reader).contains("reload, reset and health are asked on the control socket"))
    }

    /// A reset the loop did not take (it was stopping), or that made no event: the client is told, at
    /// the end of that wakeup, and never waits for ever.
    @Test func aResetThatMadeNoEventIsAnsweredWithWhy() throws {
        let sink = try Self.sink()
        sink.start(linesPressed: [false, false, nil, nil], levels: [.high, .high, .high, .high], atNs: 0)
        let control = try Self.control(sink)
        try control.send(#"{"request":"reset","input":"energy"}"#)
        sink.descriptorReady(0, events: PollEvents(rawValue: 1))
        try sink.advance(toNs: 40)  // stopping: no `takeCommands`
        #expect(try EventSocketSinkTests.next(control) == #"{"event":"stopping","message":"the daemon is stopping: energy was not reset"}"#)
        try control.send(#"{"request":"reset","input":"volume"}"#)
        sink.descriptorReady(0, events: PollEvents(rawValue: 1))
        _ = sink.takeCommands()
        try sink.advance(toNs: 50)  // taken, but no output came
        #expect(try EventSocketSinkTests.next(control) == #"{"event":"error","message":"volume has nothing to reset in this run"}"#)
        #expect(sink.takeCommands().isEmpty)
    }

    /// The lines an input makes before the loop takes a reset (a pulse, a detent in the same wakeup)
    /// answer nobody; two clients resetting one input each get the line of their own command.
    @Test func onlyTheResetsOwnLineAnswersAndEachClientGetsItsOwn() throws {
        let sink = try Self.sink()
        sink.start(linesPressed: [false, false, nil, nil], levels: [.high, .high, .high, .high], atNs: 0)
        let first = try Self.control(sink)
        let second = try Self.control(sink)
        try first.send(#"{"request":"reset","input":"energy","to":10}"#)
        try second.send(#"{"request":"reset","input":"energy","to":20}"#)
        sink.descriptorReady(0, events: PollEvents(rawValue: 1))
        // The wakeup's pulse, handed on before the loop takes the commands.
        try sink.consume(.count(OutputSource(input: 1, line: 1), PulseCount(total: 40_001, timeNs: 29, onsetNs: 28)), nowNs: 30)
        #expect(sink.takeCommands() == [.reset(input: 1, to: 10), .reset(input: 1, to: 20)])
        try sink.consume(.totalReset(OutputSource(input: 1, line: 1), CounterReading(rate: 0, ratePerMinute: 0, timeNs: 30, total: 10)), nowNs: 30)
        try sink.consume(.totalReset(OutputSource(input: 1, line: 1), CounterReading(rate: 0, ratePerMinute: 0, timeNs: 30, total: 20)), nowNs: 30)
        try sink.advance(toNs: 30)
        #expect(try EventSocketSinkTests.next(first).hasPrefix(#"{"event":"reset","total":10,"#))
        #expect(try EventSocketSinkTests.next(second).hasPrefix(#"{"event":"reset","total":20,"#))
    }

    /// A control client that sends its request and then shuts its side (`nc -N`, `shutdown(SHUT_WR)`)
    /// still gets its answer, then the end of the stream; an events client that does the same goes on
    /// getting events.
    @Test func aClientThatShutsItsSendingSideStillGetsItsAnswerAndItsEvents() throws {
        let sink = try Self.sink()
        sink.start(linesPressed: [false, false, nil, nil], levels: [.high, .high, .high, .high], atNs: 0)
        let reader = try EventSocketSinkTests.connect(sink)
        for _ in 0..<4 { _ = try EventSocketSinkTests.next(reader) }
        let control = try Self.control(sink)
        try control.send(#"{"request":"reset","input":"volume","to":7}"#)
        #expect(shutdown(control.descriptor, Int32(SHUT_WR)) == 0)
        #expect(shutdown(reader.descriptor, Int32(SHUT_WR)) == 0)
        sink.descriptorReady(0, events: PollEvents(rawValue: 1))
        sink.descriptorReady(0, events: PollEvents(rawValue: 1))  // nothing more to read: no busy end of stream
        #expect(sink.takeCommands() == [.reset(input: 2, to: 7)])
        try sink.consume(.positionReset(OutputSource(input: 2, line: 2), position: 7, atNs: 40), nowNs: 40)
        try sink.advance(toNs: 40)
        #expect(try EventSocketSinkTests.next(control).hasPrefix(#"{"event":"reset","position":7,"#))
        #expect(try control.nextLine() == nil, "answered: then closed")
        #expect(try EventSocketSinkTests.next(reader).hasPrefix(#"{"event":"reset","position":7,"#), "the events client still reads")
    }
}
