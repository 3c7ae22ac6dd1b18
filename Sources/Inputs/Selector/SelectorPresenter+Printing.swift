import DebounceCore
import EventOutput
import InputModel
import Pipeline
import SystemPackage

/// A selector's readings as the printer and MQTT write them:
///
/// - JSON: `{"event":"select","position":3,"name":"auto","previous":2,"time_ns":T,"onset_ns":O,…}`
///   (no `previous` when none was reported), `{"event":"invalid","active":[1,3],"time_ns":T,"onset_ns":O,…}`
///   (`active`: which of its `lines:` read active, from 1), and at the start
///   `{"event":"select","position":3,"name":"auto","time_ns":T,"initial":true,…}`;
/// - text: `select   position=3 name=auto previous=2 time=SECONDS onset=SECONDS …`,
///   `invalid  active=1,3 time=SECONDS onset=SECONDS …`, and at the start `… onset=SECONDS (initial) …`.
extension SelectorPresenter: InputPrinter {
    /// Its readings, and its position at the start.
    package var printer: (any InputPrinter)? { self }

    package func writeStart(linesPressed: [Bool?], atNs nowNs: Int64, with writer: EventWriter) throws(Errno) {
        for line in printedStart(linesPressed: linesPressed, atNs: nowNs, format: writer.format) {
            writer.output.append(line)
            try writer.output.endLine()
        }
    }

    package func write(_ output: PipelineOutput, with writer: EventWriter) throws(Errno) {
        guard let line = printedLine(for: output, format: writer.format) else { return }
        writer.output.append(line)
        try writer.output.endLine()
    }

    /// The line (without its newline) of `output`, a reading; nil for any other output.
    package func printedLine(for output: PipelineOutput, format: EventFormat) -> [UInt8]? {
        guard case .selection(_, let reading) = output else { return nil }
        switch format {
        case .json: return json(reading, initial: false)
        case .text: return text(reading, initial: false)
        }
    }

    /// The line (without its newline) of its position at the start of a run at `nowNs`, from each run
    /// line's state then; none while its lines make no position.
    package func printedStart(linesPressed: [Bool?], atNs nowNs: Int64, format: EventFormat) -> [[UInt8]] {
        guard let position = position(in: linesPressed) else { return [] }
        let reading = SelectorEvent(kind: .select(position: position, previous: nil), timeNs: nowNs, onsetNs: nowNs)
        switch format {
        case .json: return [json(reading, initial: true)]
        case .text: return [text(reading, initial: true)]
        }
    }

    /// The JSON object of `reading`; `initial`: the position at the start (no onset).
    func json(_ reading: SelectorEvent, initial: Bool) -> [UInt8] {
        var fields = opening(reading)
        fields.append(.integer("time_ns", reading.timeNs))
        if !initial { fields.append(.integer("onset_ns", reading.onsetNs)) }
        var bytes = Array("{".utf8) + EventFields(fields).json.dropFirst()
        if initial { bytes += Array(",\"initial\":true".utf8) }
        return bytes + eventFields.json + Array("}".utf8)
    }

    /// The text line of `reading`; `initial`: the position at the start, marked so.
    private func text(_ reading: SelectorEvent, initial: Bool) -> [UInt8] {
        let word: String
        switch reading.kind {
        case .select: word = "select  "
        case .invalid: word = "invalid "
        }
        let times = " time=\(EventWriter.seconds(reading.timeNs)) onset=\(EventWriter.seconds(reading.onsetNs))\(initial ? " (initial)" : "")"
        return Array(word.utf8) + EventFields(Array(opening(reading).dropFirst())).text + Array(times.utf8) + eventFields.text
    }

    /// `event`, then the position, its name and the previous one, or which lines read active.
    private func opening(_ reading: SelectorEvent) -> [EventField] {
        switch reading.kind {
        case .select(let position, let previous):
            var fields: [EventField] = [.text("event", "select"), .integer("position", Int64(position)), .text("name", settings.positionName(position))]
            if let previous { fields.append(.integer("previous", Int64(previous))) }
            return fields
        case .invalid(let activeLines):
            return [.text("event", "invalid"), .integers("active", Self.activeNumbers(activeLines, lineCount: lineIndices.count))]
        }
    }

    /// The numbers (from 1, in `lines:` order) of the lines that read active in `activeLines`.
    static func activeNumbers(_ activeLines: UInt32, lineCount: Int) -> [Int64] {
        (0..<lineCount).filter { activeLines & (1 << UInt32($0)) != 0 }.map { Int64($0 + 1) }
    }
}
