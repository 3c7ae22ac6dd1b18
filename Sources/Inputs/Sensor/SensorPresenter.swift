import DebounceCore
import EventOutput
import InputModel
import Pipeline

/// A contact (`sensors:`) as the outside sees it: on `state`, `on` or `off` (at the start from the
/// level read then, and at each change), a binary sensor of its device class; on `event`, each
/// change's JSON (onset, how long the previous state lasted).
package struct SensorPresenter: InputPresenter {
    package let description: InputDescription
    /// Its run line.
    package let lineIndex: Int
    /// Its fields in its changes' JSON: `,"sensor":"front_door","chip":"gpiochip0","line":23`.
    package let eventFields: EventFields
    /// Where its line is, for its actions' environment: its chip's name and the line's offset.
    package let chip: String
    package let offset: Int

    /// The state of a contact that is on (a door open, motion seen).
    package static let onPayload = "on"
    /// The state of a contact that is off.
    package static let offPayload = "off"

    /// Contact `name` on `chip`'s line `line` (offset), run line `lineIndex`, of Home Assistant's
    /// binary-sensor `deviceClass` (`door`, `window`, `motion`...) or none; `input` its place in the
    /// run's inputs (nil: its line's).
    package init(name: String, input: Int? = nil, chip: String, line: Int, lineIndex: Int, deviceClass: String?) {
        self.lineIndex = lineIndex
        (self.chip, self.offset) = (chip, line)
        self.eventFields = .sensor(name, chip: chip, line: line)
        let state = EntityDescription(key: "state", channel: "state", value: .binary(on: Self.onPayload, off: Self.offPayload), deviceClass: deviceClass)
        self.description = InputDescription(name: name, kind: "sensor", input: input ?? lineIndex, lines: [lineIndex], entities: [state])
    }

    package var printed: PrintedFields { PrintedFields(lines: [(lineIndex, eventFields)]) }

    /// Its changes and its state at the start, as a contact's.
    package var printer: (any InputPrinter)? { SensorPrinter(line: lineIndex, fields: eventFields) }

    package func start(linesPressed: [Bool?]) -> [InputUpdate] {
        guard let isOn = Self.state(of: lineIndex, in: linesPressed) else { return [] }
        return [Self.state(isOn)]
    }

    package func updates(for output: PipelineOutput) -> [InputUpdate] {
        guard case .contact(_, let change) = output else { return [] }
        return [InputUpdate(channel: "event", payload: EventWriter.jsonObject(contact: change, fields: eventFields), delivery: .event), Self.state(change.isOn)]
    }

    static func state(_ isOn: Bool) -> InputUpdate {
        InputUpdate(channel: "state", text: isOn ? onPayload : offPayload, delivery: .state)
    }
}

extension EventFields {
    /// A configured contact's fields: `,"sensor":"front_door","chip":"gpiochip0","line":23`.
    package static func sensor(_ name: String, chip: String, line: Int) -> EventFields {
        EventFields([.text("sensor", name), .text("chip", chip), .integer("line", Int64(line))])
    }
}
