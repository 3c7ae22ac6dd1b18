import ConfigurationFile
import DebounceCore
import EventOutput
import InputModel
import Inputs
import Pipeline
import Testing

/// A selector switch as the printer, MQTT and the actions see it (`SelectorPresenter`).
@Suite struct SelectorPresenterTests {
    static let yaml = """
        buttons:
          - {name: start, line: 17}
        selectors:
          - {name: mode, lines: [5, 6, 13], positions: [off, "au\\"to", on]}
          - {name: dip, lines: [20, 21], code: binary}
          - {name: wide, lines: [1, 2, 3, 4, 7, 8, 9], code: binary}
        """
    static let source = OutputSource(input: 1, line: 1)

    static func presenters() throws -> [any InputPresenter] {
        let configuration = try ConfigurationLoader.load(yaml, file: "s.yaml")
        return InputKinds.presenters(of: configuration.roster, place: { (chip: "gpiochip0", offset: 100 + $0.index) })
    }

    static func text(_ bytes: [UInt8]?) -> String? { bytes.map { String(decoding: $0, as: UTF8.self) } }

    /// An `enum` sensor of its positions' names (or their numbers while few), and an event entity.
    @Test func itShowsAnEnumOfItsPositionsAndItsChanges() throws {
        let presenters = try Self.presenters()
        let mode = presenters[1].description
        #expect(mode.kind == "selector" && mode.input == 1 && mode.lines == [1, 2, 3])
        #expect(mode.entities.map(\.value) == [
            .choice(options: ["off", "au\"to", "on"]),
            .events(types: [EventType("select"), EventType("invalid")], template: mode.entities[1].value.template, typeTemplate: nil),
        ])
        #expect(mode.entities.map(\.channel) == ["state", "event"])
        #expect(presenters[2].description.entities.first?.value == .choice(options: ["0", "1", "2", "3"]))
        // 128 values are too many to list: a number.
        #expect(presenters[3].description.entities.first?.value == .number(stateClass: .measurement, unit: nil, field: nil, attributes: false))
    }

    /// Its position at the start, from its lines' states: when each is known and they make one.
    @Test func itsPositionAtTheStartComesFromItsLines() throws {
        let mode = try #require(try Self.presenters()[1] as? SelectorPresenter)
        #expect(mode.start(linesPressed: [false, false, true, false]) == [InputUpdate(channel: "state", text: "au\"to", delivery: .state)])
        #expect(mode.start(linesPressed: [false, true, true, false]).isEmpty, "two positions at once: no position")
        #expect(mode.start(linesPressed: [false, nil, true, false]).isEmpty, "a line not read: no position")
        let printed = mode.printedStart(linesPressed: [false, true, false, false], atNs: 7, format: .json).map { String(decoding: $0, as: UTF8.self) }
        #expect(printed == [#"{"event":"select","position":1,"name":"off","time_ns":7,"initial":true,"selector":"mode","chip":"gpiochip0","lines":[101,102,103]}"#])
        let text = mode.printedStart(linesPressed: [false, true, false, false], atNs: 7, format: .text).map { String(decoding: $0, as: UTF8.self) }
        #expect(text == ["select   position=1 name=off time=0.000000007 onset=0.000000007 (initial) selector=mode chip=gpiochip0 lines=101,102,103"])
    }

    @Test func aReadingIsPrintedAndPublishedAsOneJSONObject() throws {
        let mode = try #require(try Self.presenters()[1] as? SelectorPresenter)
        let select = PipelineOutput.selection(Self.source, SelectorEvent(kind: .select(position: 2, previous: 1), timeNs: 30, onsetNs: 10))
        let json = #"{"event":"select","position":2,"name":"au\"to","previous":1,"time_ns":30,"onset_ns":10,"selector":"mode","chip":"gpiochip0","lines":[101,102,103]}"#
        #expect(Self.text(mode.printedLine(for: select, format: .json)) == json)
        #expect(
            Self.text(mode.printedLine(for: select, format: .text))
                == #"select   position=2 name=au"to previous=1 time=0.000000030 onset=0.000000010 selector=mode chip=gpiochip0 lines=101,102,103"#)
        #expect(mode.updates(for: select) == [
            InputUpdate(channel: "event", text: json, delivery: .event, eventType: "select"), InputUpdate(channel: "state", text: "au\"to", delivery: .state),
        ])
        let invalid = PipelineOutput.selection(Self.source, SelectorEvent(kind: .invalid(activeLines: 0b101), timeNs: 30, onsetNs: 10))
        let invalidJSON = #"{"event":"invalid","active":[1,3],"time_ns":30,"onset_ns":10,"selector":"mode","chip":"gpiochip0","lines":[101,102,103]}"#
        #expect(Self.text(mode.printedLine(for: invalid, format: .json)) == invalidJSON)
        #expect(mode.updates(for: invalid) == [InputUpdate(channel: "event", text: invalidJSON, delivery: .event, eventType: "invalid")], "an invalid reading leaves the state")
        #expect(mode.printedLine(for: .rate(Self.source, CounterReading(rate: 0, ratePerMinute: 0, timeNs: 1, total: 0)), format: .json) == nil)
    }

    @Test func itsActionsGetThePositionAndItsName() throws {
        let mode = try Self.presenters()[1]
        let select = PipelineOutput.selection(Self.source, SelectorEvent(kind: .select(position: 3, previous: 2), timeNs: 30, onsetNs: 10))
        #expect(mode.actionOccasion(for: select) == ActionOccasion(on: "select", timeNs: 30))
        #expect(mode.actionEnvironment(for: select) == [
            "GPIO_EVENT=select", "GPIO_ONSET_NS=10", "GPIO_POSITION=3", "GPIO_POSITION_NAME=on", "GPIO_PREVIOUS=2", "GPIO_PREVIOUS_NAME=au\"to",
            "GPIO_SELECTOR=mode", "GPIO_TIME_NS=30",
        ])
        let invalid = PipelineOutput.selection(Self.source, SelectorEvent(kind: .invalid(activeLines: 0b110), timeNs: 30, onsetNs: 10))
        #expect(mode.actionOccasion(for: invalid)?.on == "invalid")
        #expect(mode.actionEnvironment(for: invalid) == ["GPIO_ACTIVE_LINES=2,3", "GPIO_EVENT=invalid", "GPIO_ONSET_NS=10", "GPIO_SELECTOR=mode", "GPIO_TIME_NS=30"])
    }
}

extension EntityDescription.Value {
    /// An event entity's template, for comparing descriptions.
    fileprivate var template: String? {
        if case .events(_, let template, _) = self { return template }
        return nil
    }
}
