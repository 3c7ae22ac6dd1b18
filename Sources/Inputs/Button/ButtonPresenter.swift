import DebounceCore
import EventOutput
import InputModel
import Pipeline

/// A button as the outside sees it: on `event`, each of its events as `run --format json` prints it,
/// an event entity of its gestures (each also a device trigger); on `state`, `pressed` or `released`
/// (at the start, at each press and release, and when a button held since the start is let go).
package struct ButtonPresenter: InputPresenter {
    package let description: InputDescription
    /// Its run line.
    package let lineIndex: Int
    /// The gestures its events can be, in the order they are announced.
    package let gestures: [ButtonGesture]
    /// Its fields in its events' JSON, formatted once: `,"button":"lights","chip":"gpiochip0","line":17`.
    package let eventFields: EventFields
    /// Where its line is, for its actions' environment: its chip's name and the line's offset.
    package let chip: String
    package let offset: Int

    /// Button `name` on `chip`'s line `line` (offset), run line `lineIndex`, making `gestures`; `input`
    /// its place in the run's inputs (nil: its line's, as a plan without a roster numbers them).
    package init(name: String, input: Int? = nil, chip: String, line: Int, lineIndex: Int, gestures: [ButtonGesture]) {
        self.lineIndex = lineIndex
        self.gestures = gestures
        (self.chip, self.offset) = (chip, line)
        self.eventFields = .button(name, chip: chip, line: line)
        let events = EntityDescription(
            key: "event", channel: "event",
            value: .events(
                types: gestures.map { EventType($0.identifier, trigger: $0.homeAssistantType) },
                template: "{\"event_type\": \"\(ButtonGesture.template)\"}", typeTemplate: ButtonGesture.template),
            deviceClass: "button")
        let state = EntityDescription(key: "state", label: "pressed", channel: "state", value: .binary(on: "pressed", off: "released"))
        self.description = InputDescription(
            name: name, kind: "button", input: input ?? lineIndex, lines: [lineIndex], entities: [events, state])
    }

    /// The same, its gestures those its `configuration` makes (`ButtonGesture.made(by:)`).
    package init(name: String, input: Int? = nil, chip: String, line: Int, lineIndex: Int, configuration: GestureConfiguration) {
        self.init(name: name, input: input, chip: chip, line: line, lineIndex: lineIndex, gestures: ButtonGesture.made(by: configuration))
    }

    package var printed: PrintedFields { PrintedFields(lines: [(lineIndex, eventFields)]) }

    package func start(linesPressed: [Bool?]) -> [InputUpdate] {
        guard let pressed = Self.state(of: lineIndex, in: linesPressed) else { return [] }
        return [Self.state(pressed)]
    }

    package func updates(for output: PipelineOutput) -> [InputUpdate] {
        switch output {
        case .event(let source, let event) where source.lineIndex == lineIndex:
            let json = InputUpdate(
                channel: "event", payload: EventWriter.jsonObject(event, fields: eventFields), delivery: .event, eventType: ButtonGesture(event).identifier)
            switch event.kind {
            case .press: return [json, Self.state(true)]
            case .release: return [json, Self.state(false)]
            default: return [json]
            }
        case .buttonState(let source, let isPressed, _) where source.lineIndex == lineIndex:
            // A button held since the start, let go: its state, with no event.
            return [Self.state(isPressed)]
        default:
            return []
        }
    }

    static func state(_ pressed: Bool) -> InputUpdate {
        InputUpdate(channel: "state", text: pressed ? "pressed" : "released", delivery: .state)
    }
}

extension EventFields {
    /// A configured button's fields, as `run` prints them and MQTT publishes them:
    /// `,"button":"lights","chip":"gpiochip0","line":17`.
    package static func button(_ name: String, chip: String, line: Int) -> EventFields {
        EventFields([.text("button", name), .text("chip", chip), .integer("line", Int64(line))])
    }
}
