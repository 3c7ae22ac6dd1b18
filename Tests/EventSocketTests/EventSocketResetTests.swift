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
        (#"{"request":"reset","input":"bell"}"#, "bell is a button: only a counter's total and an encoder's position can be reset"),
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
        #expect(try EventSocketSinkTests.next(control) == #"{"event":"error","message":"the daemon is stopping: energy was not reset"}"#)
        try control.send(#"{"request":"reset","input":"volume"}"#)
        sink.descriptorReady(0, events: PollEvents(rawValue: 1))
        _ = sink.takeCommands()
        try sink.advance(toNs: 50)  // taken, but no output came
        #expect(try EventSocketSinkTests.next(control) == #"{"event":"error","message":"volume has nothing to reset in this run"}"#)
        #expect(sink.takeCommands().isEmpty)
    }
}
