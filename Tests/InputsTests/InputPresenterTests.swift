import DebounceCore
import EventOutput
import InputModel
import Inputs
import Pipeline
import Testing

/// Each kind's presenter: what it shows at the start and what each of its outputs changes, on which
/// channel and how it is kept.
@Suite struct InputPresenterTests {
    static func text(_ updates: [InputUpdate]) -> [String] {
        updates.map { "\($0.channel) \($0.delivery) \(String(decoding: $0.payload, as: UTF8.self))" }
    }

    @Test func aButtonShowsEachEventAndItsStateAfterAPressOrRelease() {
        let button = ButtonPresenter(name: "bell", input: 4, chip: "gpiochip0", line: 17, lineIndex: 2, gestures: [.press, .release])
        let source = OutputSource(input: 4, line: 2)
        #expect(Self.text(button.updates(for: .event(source, ButtonEvent(kind: .press, timeNs: 9, onsetNs: 7)))) == [
            #"event event {"event":"press","time_ns":9,"onset_ns":7,"button":"bell","chip":"gpiochip0","line":17}"#, "state state pressed",
        ])
        #expect(Self.text(button.updates(for: .event(source, ButtonEvent(kind: .click, timeNs: 20, onsetNs: 7, count: 2)))) == [
            #"event event {"event":"click","time_ns":20,"onset_ns":7,"count":2,"button":"bell","chip":"gpiochip0","line":17}"#,
        ])
        #expect(Self.text(button.updates(for: .buttonState(source, isPressed: false, atNs: 30))) == ["state state released"])
        // Another line's event (an encoder's reset button shares no input with it, but be sure).
        #expect(button.updates(for: .event(OutputSource(input: 4, line: 3), ButtonEvent(kind: .press, timeNs: 9, onsetNs: 7))).isEmpty)
        #expect(Self.text(button.start(linesPressed: [nil, nil, true])) == ["state state pressed"])
        #expect(button.start(linesPressed: [true]).isEmpty, "not a line of this run")
        #expect(button.description.input == 4 && button.description.lines == [2])
    }

    @Test func anEncoderShowsEachDetentAndTheLatestPosition() {
        let encoder = EncoderPresenter(name: "volume", input: 1, chip: "gpiochip0", lines: [5, 6], lineIndices: [3, 4], startPosition: 7)
        let source = OutputSource(input: 1, line: 3)
        let detent = EncoderEvent(direction: .clockwise, position: 8, velocity: 2, timeNs: 10, onsetNs: 9)
        #expect(Self.text(encoder.updates(for: .rotation(source, detent))) == [
            #"event event {"event":"rotate","direction":"cw","position":8,"velocity":2,"time_ns":10,"onset_ns":9,"encoder":"volume","chip":"gpiochip0","lines":[5,6]}"#,
            "position latestState 8",
        ])
        #expect(Self.text(encoder.updates(for: .positionReset(source, position: 0, atNs: 20))) == ["position latestState 0"])
        #expect(Self.text(encoder.start(linesPressed: [])) == ["position latestState 7"])
        #expect(EncoderPresenter(name: "v", input: 0, chip: "c", lines: []).start(linesPressed: []).map(\.payload) == [Array("0".utf8)])
        #expect(EncoderPresenter(name: "v", input: 0, chip: "c", lines: [], startPosition: nil).start(linesPressed: []).isEmpty)
        #expect(encoder.description.input == 1 && encoder.description.lines == [3, 4])
    }

    @Test func aContactShowsEachChangeAndItsState() {
        let door = SensorPresenter(name: "door", chip: "gpiochip0", line: 23, lineIndex: 0, deviceClass: "door")
        let change = ContactEvent(isOn: true, timeNs: 50, onsetNs: 40, previousDurationNs: 1_000)
        let updates = door.updates(for: .contact(.line(0), change))
        #expect(updates.map(\.channel) == ["event", "state"] && updates.map(\.delivery) == [.event, .state])
        #expect(updates.last?.payload == Array("on".utf8))
        #expect(Self.text(door.start(linesPressed: [false])) == ["state state off"])
        #expect(door.description.entities.map(\.deviceClass) == ["door"])
    }

    @Test func aCounterShowsItsStartTotalThenEachPulse() {
        let meter = CounterPresenter(name: "meter", chip: "gpiochip0", line: 20, lineIndex: 0, perUnit: 1000, unit: "kWh", deviceClass: "energy", startTotal: 100, publishIntervalNs: 5)
        #expect(Self.text(meter.start(linesPressed: [])) == [#"state latestState {"total":100,"value":0.1,"rate_per_min":0,"rate":0}"#])
        let pulse = PulseCount(total: 101, timeNs: 5, onsetNs: 4, intervalNs: 60_000_000_000, rate: 60)
        #expect(Self.text(meter.updates(for: .count(.line(0), pulse))) == [#"state latestState {"total":101,"value":0.101,"rate_per_min":1,"rate":60}"#])
        #expect(meter.description.stateIntervalNs == 5)
        #expect(meter.description.entities.map(\.key) == ["total", "rate"])
    }

    /// A counter's total set by hand (`reset`): its state with the rate kept, its own printed line, and
    /// `reset` with no value starts it from 0; an encoder's goes to its `reset_to:`; a button has none.
    @Test func aTotalSetByHandIsTheCountersStateAndItsOwnLine() {
        let meter = CounterPresenter(name: "meter", chip: "gpiochip0", line: 20, lineIndex: 0, perUnit: 1000, unit: "kWh", deviceClass: "energy", startTotal: 100, publishIntervalNs: 5)
        let reset = PipelineOutput.totalReset(.line(0), CounterReading(rate: 60, ratePerMinute: 1, timeNs: 2_500_000_000, total: 41_000))
        #expect(Self.text(meter.updates(for: reset)) == [#"state latestState {"total":41000,"value":41,"rate_per_min":1,"rate":60}"#])
        let printer = CounterPrinter(fields: meter.eventFields, perUnit: meter.perUnit, rateUnit: meter.rateUnit)
        #expect(printer.resetLine(CounterReading(rate: 60, ratePerMinute: 1, timeNs: 2_500_000_000, total: 41_000), format: .json) == Array(#"{"event":"reset","total":41000,"value":41,"time_ns":2500000000,"counter":"meter","chip":"gpiochip0","line":20}"#.utf8))
        #expect(String(decoding: printer.resetLine(CounterReading(rate: 60, ratePerMinute: 1, timeNs: 2_500_000_000, total: 41_000), format: .text), as: UTF8.self) == "reset   total=41000 value=41 time=2.500000000 counter=meter chip=gpiochip0 line=20")
        #expect(meter.actionOccasion(for: reset) == nil, "a reset starts no action")
        #expect(meter.resetValue == 0)
        #expect(EncoderPresenter(name: "v", input: 0, chip: "c", lines: [], resetPosition: 50).resetValue == 50)
        #expect(ButtonPresenter(name: "b", input: 0, chip: "c", line: 1, lineIndex: 0, gestures: [.press]).resetValue == nil)
    }

    /// A code's keys and digits stay secret without `publish_code`; its length goes out.
    @Test func aKeypadShowsItsNamedKeysPressesAndACodesLengthOnly() {
        let keypad = KeypadPresenter(
            name: "door", input: 2, keys: Array("12#"), lineIndices: [5, 6, 7], collectsCodes: true, publishesCode: false, namesKey: { $0 == "#" })
        let press = ButtonEvent(kind: .press, timeNs: 3, onsetNs: 2)
        #expect(keypad.updates(for: .event(OutputSource(input: 2, line: 5), press)).isEmpty, "a code's key")
        #expect(Self.text(keypad.updates(for: .event(OutputSource(input: 2, line: 7), press))) == [##"event event {"event_type":"#","time_ns":3}"##])
        #expect(keypad.updates(for: .event(OutputSource(input: 2, line: 7), ButtonEvent(kind: .release, timeNs: 4, onsetNs: 3))).isEmpty)
        let code = EnteredCode(code: "12", timeNs: 9)
        #expect(Self.text(keypad.updates(for: code)) == [#"event event {"event_type":"code","length":2,"time_ns":9}"#])
        #expect(keypad.eventTypes == ["#", "code"])
        #expect(keypad.description.input == 2 && keypad.description.lines == [5, 6, 7])
    }

    /// What `run`'s printer writes after each kind's events: a line's fields for a button, a contact
    /// and a meter, whose printers write their states and pulses (with its units); an encoder's printer
    /// its detents; a keypad's keys (`?` for a code's, `publish_code` or not) and its name after its codes.
    @Test func eachKindSaysWhatThePrinterWritesAfterItsEvents() {
        let button = ButtonPresenter(name: "bell", chip: "gpiochip0", line: 17, lineIndex: 2, gestures: [.press])
        #expect(button.printed.lines.map(\.line) == [2] && button.printed.lines.map(\.fields) == [.button("bell", chip: "gpiochip0", line: 17)])
        #expect(button.printed.input == nil && button.printer == nil)
        let door = SensorPresenter(name: "door", chip: "gpiochip0", line: 23, lineIndex: 5, deviceClass: nil)
        #expect(door.printer?.statedLines == [5] && door.printed.lines.map(\.fields) == [.sensor("door", chip: "gpiochip0", line: 23)])
        #expect((door.printer as? SensorPrinter)?.fields == .sensor("door", chip: "gpiochip0", line: 23))
        let meter = CounterPresenter(
            name: "meter", chip: "gpiochip0", line: 24, lineIndex: 6, perUnit: 800, unit: nil, deviceClass: nil, startTotal: 0, publishIntervalNs: 0,
            rateUnit: "W")
        #expect(meter.printed.lines.map(\.fields) == [.counter("meter", chip: "gpiochip0", line: 24)])
        let meterPrinter = meter.printer as? CounterPrinter
        #expect(meterPrinter?.fields == .counter("meter", chip: "gpiochip0", line: 24) && meterPrinter?.perUnit == 800 && meterPrinter?.rateUnit == "W")
        let encoder = EncoderPresenter(name: "volume", input: 1, chip: "gpiochip0", lines: [5, 6], lineIndices: [3, 4])
        #expect(encoder.printed.lines.isEmpty && encoder.printed.input == nil)
        #expect((encoder.printer as? EncoderPrinter)?.fields == .encoder("volume", chip: "gpiochip0", lines: [5, 6]))
        let keypad = KeypadPresenter(
            name: "door", input: 2, keys: Array("12#"), lineIndices: [5, 6, 7], collectsCodes: true, publishesCode: true, namesKey: { $0 == "#" })
        #expect(keypad.printed.lines.map(\.line) == [5, 6, 7])
        #expect(keypad.printed.lines.map(\.fields) == [.key("?", keypad: "door"), .key("?", keypad: "door"), .key("#", keypad: "door")])
        #expect(keypad.printed.input == .keypad("door"))
    }
}
