import DebounceCore
import SystemPackage

extension EventWriter {
    /// Writes a contact's state, then `fields` (the sensor's, formatted once):
    ///
    /// - JSON: `{"event":"state","state":"on","time_ns":T,"onset_ns":O,"previous_ns":D,…}`; the state
    ///   read at the start has `"initial":true` and no `previous_ns`;
    /// - text: `state   on  time=SECONDS onset=SECONDS previous=D.DDDs …`.
    ///
    /// `previous_ns` is how long the previous state lasted (0 when it began before the run).
    public func write(contact: ContactEvent, initial: Bool = false, fields: EventFields = .none) throws(Errno) {
        switch format {
        case .json:
            output.append(Self.jsonObject(contact: contact, initial: initial, fields: fields))
        case .text:
            output.appendUTF8("state   \(contact.isOn ? "on " : "off") time=")
            output.appendUTF8(Self.seconds(contact.timeNs))
            output.append(" onset=")
            output.appendUTF8(Self.seconds(contact.onsetNs))
            if initial {
                output.append(" (initial)")
            } else {
                output.appendUTF8(" previous=\(Self.decimal(Double(contact.previousDurationNs) / 1e9))s")
            }
            output.append(fields.text)
        }
        try output.endLine()
    }

    /// The JSON object `write(contact:initial:fields:)` prints (without the newline): the same bytes for
    /// every consumer, e.g. MQTT payloads.
    public static func jsonObject(contact: ContactEvent, initial: Bool = false, fields: EventFields = .none) -> [UInt8] {
        var text = "{\"event\":\"state\",\"state\":\"\(contact.isOn ? "on" : "off")\",\"time_ns\":\(contact.timeNs),\"onset_ns\":\(contact.onsetNs)"
        text += initial ? ",\"initial\":true" : ",\"previous_ns\":\(contact.previousDurationNs)"
        return Array(text.utf8) + fields.json + [UInt8(ascii: "}")]
    }
}
