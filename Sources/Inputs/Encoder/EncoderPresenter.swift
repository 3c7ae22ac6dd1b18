import DebounceCore
import EventOutput
import InputModel
import Pipeline

/// A rotary encoder as the outside sees it: on `event`, each detent as JSON, an event entity of
/// `rotate_left` and `rotate_right` with the detent's position and velocity as attributes; on
/// `position`, the position after it, only the latest mattering (also after its reset button, and
/// at the start).
package struct EncoderPresenter: InputPresenter {
    package let description: InputDescription
    /// The position the run starts at (`EncoderConfiguration.clamped(0)`, or the one kept), shown at
    /// the start so that a previous run's is not; nil: nothing until the first detent.
    package let startPosition: Int?
    /// The position `reset` sets when it names none (its `reset_to:`, or 0 clamped into its range).
    package let resetPosition: Int
    /// Its fields in its detents' JSON: `,"encoder":"volume","chip":"gpiochip0","lines":[17,27]`.
    package let eventFields: EventFields

    /// The `event_type` of a clockwise detent.
    package static let clockwiseEventType = "rotate_right"
    /// The `event_type` of a counter-clockwise detent.
    package static let counterClockwiseEventType = "rotate_left"

    /// Jinja that turns a detent's JSON (`EventWriter.jsonObject(rotation:fields:)`) into
    /// `{"event_type":"rotate_right","position":3,"velocity":12.5}` (`rotate_right` for `cw`,
    /// `rotate_left` for `ccw`).
    package static let rotationTemplate =
        "{\"event_type\":\"{{ '\(clockwiseEventType)' if value_json.direction == 'cw' else '\(counterClockwiseEventType)' }}\","
        + "\"position\":{{ value_json.position }},\"velocity\":{{ value_json.velocity }}}"

    /// Encoder `name` (input `input`) on `chip`'s lines A and B (`lines`, offsets; empty when no line
    /// is open), run lines `lineIndices`, starting at `startPosition`; `reset` with no value sets
    /// `resetPosition`.
    package init(name: String, input: Int, chip: String, lines: [Int], lineIndices: [Int] = [], startPosition: Int? = 0, resetPosition: Int = 0) {
        self.startPosition = startPosition
        self.resetPosition = resetPosition
        self.eventFields = .encoder(name, chip: chip, lines: lines)
        let events = EntityDescription(
            key: "event", channel: "event",
            value: .events(
                types: [EventType(Self.counterClockwiseEventType), EventType(Self.clockwiseEventType)], template: Self.rotationTemplate, typeTemplate: nil),
            icon: "mdi:knob")
        let position = EntityDescription(
            key: "position", label: "position", channel: "position", value: .number(stateClass: .measurement, unit: nil, field: nil, attributes: false),
            icon: "mdi:knob")
        self.description = InputDescription(name: name, kind: "encoder", input: input, lines: lineIndices, entities: [events, position])
    }

    package var resetValue: Int64? { Int64(resetPosition) }

    /// Its lines print nothing of their own (its printer writes its detents and resets).
    package var printed: PrintedFields { PrintedFields() }

    /// Its detents and resets, with its fields.
    package var printer: (any InputPrinter)? { EncoderPrinter(fields: eventFields) }

    package func start(linesPressed: [Bool?]) -> [InputUpdate] {
        guard let startPosition else { return [] }
        return [Self.position(startPosition)]
    }

    package func updates(for output: PipelineOutput) -> [InputUpdate] {
        switch output {
        case .rotation(_, let detent):
            [
                InputUpdate(
                    channel: "event", payload: EventWriter.jsonObject(rotation: detent, fields: eventFields), delivery: .event,
                    eventType: detent.direction == .clockwise ? Self.clockwiseEventType : Self.counterClockwiseEventType),
                Self.position(detent.position),
            ]
        case .positionReset(_, let position, _):
            // Its reset button's press: the position, as a detent leaves it (no event: the event
            // entity knows only the detents' types).
            [Self.position(position)]
        default:
            []
        }
    }

    static func position(_ position: Int) -> InputUpdate {
        InputUpdate(channel: "position", text: String(position), delivery: .latestState)
    }
}

extension EventFields {
    /// A configured encoder's fields, as MQTT publishes them after a detent's standard fields:
    /// `,"encoder":"volume","chip":"gpiochip0","lines":[17,27]` (lines A and B).
    package static func encoder(_ name: String, chip: String, lines: [Int]) -> EventFields {
        EventFields([.text("encoder", name), .text("chip", chip), .integers("lines", lines.map(Int64.init))])
    }
}
