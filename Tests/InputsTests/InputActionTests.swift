import DebounceCore
import InputModel
import Inputs
import Pipeline
import Testing

/// What each kind's outputs are to its actions (the `on:` words they answer) and what their commands
/// get in their environment: the words and variables the docs list, per kind.
@Suite struct InputActionTests {
    @Test func aButtonsEventsAnswerTheirKindAndCountAndNameTheLine() throws {
        let button = ButtonPresenter(name: "bell", input: 4, chip: "gpiochip0", line: 17, lineIndex: 2, gestures: [.press])
        let click = PipelineOutput.event(OutputSource(input: 4, line: 2), ButtonEvent(kind: .click, timeNs: 20, onsetNs: 7, count: 2))
        #expect(button.actionOccasion(for: click) == ActionOccasion(on: "click", count: 2, timeNs: 20))
        #expect(button.actionEnvironment(for: click) == [
            "GPIO_BUTTON=bell", "GPIO_CHIP=gpiochip0", "GPIO_COUNT=2", "GPIO_EVENT=click", "GPIO_HELD_NS=0", "GPIO_LINE=17", "GPIO_ONSET_NS=7",
            "GPIO_TIME_NS=20",
        ])
        // A button held since the start and let go starts nothing (its press was never reported).
        #expect(button.actionOccasion(for: .event(OutputSource(input: 4, line: 2), ButtonEvent(kind: .release, timeNs: 30, onsetNs: 29)))?.releasesHeldKeys == true)
        #expect(button.actionOccasion(for: .buttonState(OutputSource(input: 4, line: 2), isPressed: false, atNs: 30)) == nil)
    }

    @Test func anEncodersDetentAnswersItsDirectionAndRotate() {
        let encoder = EncoderPresenter(name: "volume", input: 1, chip: "gpiochip0", lines: [5, 6], lineIndices: [3, 4])
        let source = OutputSource(input: 1, line: 3)
        let detent = PipelineOutput.rotation(source, EncoderEvent(direction: .counterClockwise, position: -2, velocity: 2.5, timeNs: 10, onsetNs: 9))
        #expect(encoder.actionOccasion(for: detent) == ActionOccasion(on: "ccw", alsoOn: "rotate", timeNs: 10, step: -1))
        #expect(encoder.actionEnvironment(for: detent) == [
            "GPIO_DIRECTION=ccw", "GPIO_ENCODER=volume", "GPIO_EVENT=rotate", "GPIO_ONSET_NS=9", "GPIO_POSITION=-2", "GPIO_TIME_NS=10", "GPIO_VELOCITY=2.5",
        ])
        #expect(encoder.actionOccasion(for: .positionReset(source, position: 0, atNs: 20)) == nil, "a reset starts no action")
    }

    @Test func aContactsChangeAnswersItsStateAndChange() {
        let door = SensorPresenter(name: "door", input: 0, chip: "gpiochip0", line: 23, lineIndex: 0, deviceClass: "door")
        let closed = PipelineOutput.contact(.line(0), ContactEvent(isOn: false, timeNs: 50, onsetNs: 40, previousDurationNs: 300))
        #expect(door.actionOccasion(for: closed) == ActionOccasion(on: "off", alsoOn: "change", timeNs: 50))
        #expect(door.actionEnvironment(for: closed) == [
            "GPIO_CHIP=gpiochip0", "GPIO_EVENT=state", "GPIO_LINE=23", "GPIO_ONSET_NS=40", "GPIO_PREVIOUS_NS=300", "GPIO_SENSOR=door", "GPIO_STATE=off",
            "GPIO_TIME_NS=50",
        ])
    }

    /// A pulse answers `pulse` and `rate` (it gives a rate too); a fall of the rate `rate` only, with
    /// no onset or interval.
    @Test func aCountersPulseAnswersPulseAndRateAndAFallRateOnly() {
        let meter = CounterPresenter(
            name: "energy", chip: "gpiochip0", line: 24, lineIndex: 0, perUnit: 1000, unit: "kWh", deviceClass: "energy", startTotal: 0, publishIntervalNs: 0,
            rateUnit: "W")
        let pulse = PipelineOutput.count(.line(0), PulseCount(total: 1002, timeNs: 410, onsetNs: 400, intervalNs: 300, rate: 12000))
        #expect(meter.actionOccasion(for: pulse) == ActionOccasion(on: "pulse", alsoOn: "rate", timeNs: 410))
        #expect(meter.actionEnvironment(for: pulse) == [
            "GPIO_CHIP=gpiochip0", "GPIO_COUNTER=energy", "GPIO_EVENT=pulse", "GPIO_LINE=24", "GPIO_RATE=12000", "GPIO_RATE_UNIT=W", "GPIO_TIME_NS=410",
            "GPIO_TOTAL=1002", "GPIO_VALUE=1.002", "GPIO_UNIT=kWh", "GPIO_INTERVAL_NS=300", "GPIO_ONSET_NS=400",
        ])
        let fall = PipelineOutput.rate(.line(0), CounterReading(rate: 7200, ratePerMinute: 120, timeNs: 900, total: 1002))
        #expect(meter.actionOccasion(for: fall) == ActionOccasion(on: "rate", timeNs: 900))
        #expect(!meter.actionEnvironment(for: fall).contains { $0.hasPrefix("GPIO_ONSET_NS=") || $0.hasPrefix("GPIO_INTERVAL_NS=") })
        #expect(meter.actionEnvironment(for: fall).contains("GPIO_EVENT=rate"))
    }

    /// A key's event is a button's, named by its keypad and key, at its line's place; a code answers
    /// `code`, and its commands are the one place the code goes.
    @Test func aKeysEventsAreAButtonsNamedByTheKeyAndACodeGoesToItsCommandsOnly() {
        let keypad = KeypadPresenter(
            name: "door", input: 2, keys: Array("12#"), lineIndices: [5, 6, 7], places: [("gpiochip0", 5), ("gpiochip0", 6), ("gpiochip0", 7)],
            collectsCodes: true, publishesCode: false, namesKey: { $0 == "#" })
        let press = PipelineOutput.event(OutputSource(input: 2, line: 7), ButtonEvent(kind: .press, timeNs: 3, onsetNs: 2))
        #expect(keypad.actionOccasion(for: press) == ActionOccasion(on: "press", count: 0, timeNs: 3))
        #expect(keypad.actionEnvironment(for: press) == [
            "GPIO_BUTTON=door key #", "GPIO_CHIP=gpiochip0", "GPIO_COUNT=0", "GPIO_EVENT=press", "GPIO_HELD_NS=0", "GPIO_LINE=7", "GPIO_ONSET_NS=2",
            "GPIO_TIME_NS=3", "GPIO_KEY=#", "GPIO_KEYPAD=door",
        ])
        let code = EnteredCode(code: "1212", timeNs: 9)
        #expect(keypad.actionOccasion(for: code) == ActionOccasion(on: "code", timeNs: 9))
        #expect(keypad.actionEnvironment(for: code) == ["GPIO_CODE=1212", "GPIO_CODE_LENGTH=4", "GPIO_EVENT=code", "GPIO_KEYPAD=door", "GPIO_TIME_NS=9"])
        // The other kinds have no codes.
        #expect(ButtonPresenter(name: "b", chip: "c", line: 1, lineIndex: 0, gestures: []).actionOccasion(for: code) == nil)
    }
}
