import DebounceCore
import EventOutput
import InputModel
import Inputs
import Pipeline
import Testing

/// What an update says for a consumer that reads no JSON (ESPHome's API): each event's type, one of its
/// entity's and the one its template names, and the numbers of the fields a number entity reads.
@Suite struct InputUpdateValuesTests {
    /// The event types of `presenter`'s event entity.
    static func types(_ presenter: some InputPresenter) -> [String] {
        presenter.description.entities.flatMap { entity -> [String] in
            if case .events(let types, _, _) = entity.value { return types.map(\.name) }
            return []
        }
    }

    @Test func aButtonsEventsAreOfTheGesturesItAnnounces() {
        var gestures = GestureConfiguration()
        gestures.clickWindowNs = 300_000_000
        gestures.maxClickCount = 6
        gestures.holdNs = 1_000_000_000
        let button = ButtonPresenter(name: "bell", input: 0, chip: "gpiochip0", line: 17, lineIndex: 0, configuration: gestures)
        let source = OutputSource(input: 0, line: 0)
        let events: [(ButtonEvent, String)] = [
            (ButtonEvent(kind: .press, timeNs: 1, onsetNs: 1), "press"),
            (ButtonEvent(kind: .click, timeNs: 2, onsetNs: 1, count: 1), "click"),
            (ButtonEvent(kind: .click, timeNs: 2, onsetNs: 1, count: 2), "double_click"),
            (ButtonEvent(kind: .click, timeNs: 2, onsetNs: 1, count: 6), "click_6"),
            (ButtonEvent(kind: .hold, timeNs: 3, onsetNs: 1), "hold"),
            (ButtonEvent(kind: .longRelease, timeNs: 4, onsetNs: 1), "long_release"),
        ]
        for (event, type) in events {
            let update = button.updates(for: .event(source, event)).first { $0.channel == "event" }
            #expect(update?.eventType == type)
            #expect(Self.types(button).contains(type))
        }
        #expect(button.updates(for: .event(source, ButtonEvent(kind: .press, timeNs: 1, onsetNs: 1))).last?.eventType == nil, "its state has no type")
    }

    @Test func anEncodersDetentsAreRotationsToTheirSide() {
        let encoder = EncoderPresenter(name: "volume", input: 1, chip: "gpiochip0", lines: [5, 6], lineIndices: [3, 4], startPosition: 7)
        let source = OutputSource(input: 1, line: 3)
        let right = encoder.updates(for: .rotation(source, EncoderEvent(direction: .clockwise, position: 8, timeNs: 10, onsetNs: 9)))
        let left = encoder.updates(for: .rotation(source, EncoderEvent(direction: .counterClockwise, position: 7, timeNs: 11, onsetNs: 10)))
        #expect(right.first?.eventType == "rotate_right" && left.first?.eventType == "rotate_left")
        #expect(Self.types(encoder) == ["rotate_left", "rotate_right"])
    }

    @Test func aKeypadsPressesAreTheirKeysAndItsCodesCode() {
        let keypad = KeypadPresenter(
            name: "door", input: 2, keys: Array("12#"), lineIndices: [5, 6, 7], collectsCodes: true, publishesCode: false, namesKey: { $0 == "#" })
        let press = keypad.updates(for: .event(OutputSource(input: 2, line: 7), ButtonEvent(kind: .press, timeNs: 3, onsetNs: 2)))
        #expect(press.map(\.eventType) == ["#"])
        #expect(keypad.updates(for: EnteredCode(code: "12", timeNs: 9)).map(\.eventType) == ["code"])
        #expect(Self.types(keypad) == ["#", "code"])
    }

    @Test func aSelectorsReadingsAreSelectOrInvalid() throws {
        let mode = try #require(try SelectorPresenterTests.presenters()[1] as? SelectorPresenter)
        let source = SelectorPresenterTests.source
        let select = mode.updates(for: .selection(source, SelectorEvent(kind: .select(position: 2, previous: 1), timeNs: 30, onsetNs: 10)))
        #expect(select.map(\.eventType) == ["select", nil])
        let invalid = mode.updates(for: .selection(source, SelectorEvent(kind: .invalid(activeLines: 3), timeNs: 30, onsetNs: 10)))
        #expect(invalid.map(\.eventType) == ["invalid"])
    }

    /// A meter's total and rate, as numbers: the value in its unit (its total over its pulses a unit)
    /// and shown with the decimals one pulse needs.
    @Test func aMetersStateCarriesItsValueAndRate() {
        let meter = CounterPresenter(
            name: "meter", chip: "gpiochip0", line: 20, lineIndex: 0, perUnit: 1000, unit: "kWh", deviceClass: "energy", startTotal: 100, publishIntervalNs: 5)
        let pulse = PulseCount(total: 1234, timeNs: 5, onsetNs: 4, intervalNs: 60_000_000_000, rate: 60)
        #expect(meter.updates(for: .count(.line(0), pulse)).map(\.numbers) == [["value": 1.234, "rate": 60]])
        #expect(meter.description.entities.map(\.decimals) == [3, 3])
        #expect(EventWriter.valueDecimals(perUnit: 10_000) == 4 && EventWriter.valueDecimals(perUnit: 1) == 0 && EventWriter.valueDecimals(perUnit: 800) == 3)
    }
}
