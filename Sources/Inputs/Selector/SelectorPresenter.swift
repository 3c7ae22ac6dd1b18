import DebounceCore
import EventOutput
import InputModel
import Pipeline

/// A selector switch as the outside sees it: on `state`, its position's name (a Home Assistant
/// `enum` sensor of its positions), at the start and after each reading that held; on `event`, each
/// reading as JSON (`select`, `invalid`), an event entity. The printer prints its readings and its
/// position at the start.
package struct SelectorPresenter: InputPresenter {
    package let description: InputDescription
    /// Its run lines, bit i of a reading the i-th.
    let lineIndices: [Int]
    /// Its settings: its code, its positions' names.
    let settings: SelectorSettings
    /// Its fields after its events: `,"selector":"mode","chip":"gpiochip0","lines":[5,6,13]`.
    let eventFields: EventFields

    /// The most positions shown as an `enum` sensor's options when the configuration names none; a
    /// coded switch that can make more is shown as a number.
    static let maximumUnnamedOptions = 64

    /// Jinja that turns a reading's JSON into `{"event_type":"select","position":3,"name":"auto"}`
    /// (an invalid reading: its type alone).
    static let eventTemplate =
        "{\"event_type\":\"{{ value_json.event }}\"{% if value_json.position is defined %},\"position\":{{ value_json.position }},"
        + "\"name\":{{ value_json.name | tojson }}{% endif %}}"

    /// Selector `settings` as input `input` on `chip`'s `lines` (offsets; empty when none is open), run lines `lineIndices`.
    init(_ settings: SelectorSettings, input: Int, chip: String, lines: [Int], lineIndices: [Int]) {
        self.lineIndices = lineIndices
        self.settings = settings
        self.eventFields = EventFields([.text("selector", settings.name), .text("chip", chip), .integers("lines", lines.map(Int64.init))])
        let state: EntityDescription
        if let options = Self.options(settings) {
            state = EntityDescription(key: "state", channel: "state", value: .choice(options: options), icon: "mdi:knob")
        } else {
            state = EntityDescription(
                key: "state", channel: "state", value: .number(stateClass: .measurement, unit: nil, field: nil, attributes: false), icon: "mdi:knob")
        }
        let events = EntityDescription(
            key: "event", label: "changes", channel: "event",
            value: .events(types: [EventType("select"), EventType("invalid")], template: Self.eventTemplate, typeTemplate: nil), icon: "mdi:knob")
        description = InputDescription(name: settings.name, kind: "selector", input: input, lines: lineIndices, entities: [state, events])
    }

    /// Its positions' names, or their numbers while there are few enough; nil: too many to list.
    private static func options(_ settings: SelectorSettings) -> [String]? {
        if !settings.positions.isEmpty { return settings.positions }
        let count = settings.configuration.valueCount(from: settings.lowestValue, atMost: maximumUnnamedOptions + 1)
        guard count <= maximumUnnamedOptions else { return nil }
        return (0..<count).map { String(settings.lowestValue + $0) }
    }

    /// Its position from its lines' states in `linesPressed`, if each is known and they make one.
    func position(in linesPressed: [Bool?]) -> Int? {
        var activeLines: UInt32 = 0
        for (bit, line) in lineIndices.enumerated() {
            guard let isActive = Self.state(of: line, in: linesPressed) else { return nil }
            if isActive { activeLines |= 1 << UInt32(bit) }
        }
        return settings.configuration.value(ofActiveLines: activeLines)
    }

    /// Its readings carry their own fields (its printer, `SelectorPresenter+Printing.swift`).
    package var printed: PrintedFields { PrintedFields() }

    package func start(linesPressed: [Bool?]) -> [InputUpdate] {
        guard let position = position(in: linesPressed) else { return [] }
        return [stateUpdate(position)]
    }

    package func updates(for output: PipelineOutput) -> [InputUpdate] {
        guard case .selection(_, let reading) = output else { return [] }
        var event = InputUpdate(channel: "event", payload: json(reading, initial: false), delivery: .event, eventType: "invalid")
        guard case .select(let position, _) = reading.kind else { return [event] }
        event.eventType = "select"
        return [event, stateUpdate(position)]
    }

    private func stateUpdate(_ position: Int) -> InputUpdate {
        InputUpdate(channel: "state", text: settings.positionName(position), delivery: .state)
    }
}
