import DebounceCore
import EventLoop
import EventOutput
import LinuxSys
import Pipeline
import Settings
import SystemPackage

/// The sink that shows which keys a run would type on the virtual keyboard, without one: for trying a
/// configuration with keys on a machine without `/dev/uinput` (`run --simulate`). It turns events into
/// key reports exactly as `KeyboardSink` does (through `KeyMapping`) and writes one line per report,
/// right after the event's own line (the printer comes first in the loop's sinks and writes at every
/// line's end, as this sink does).
///
/// Text: `  would type KEY_NEXTSONG` (down and up at once), `  would press KEY_ESC` (down until the
/// button's release), `  would release KEY_ESC`, `  would move REL_WHEEL by -1`; a combination is
/// `KEY_LEFTCTRL+KEY_C`. JSON: `{"event":"keys","change":"type","keys":["KEY_NEXTSONG"],"time_ns":N}`
/// (`change` `type`, `press` or `release`), or `{"event":"keys","change":"move","axis":"REL_WHEEL",
/// "value":-1,"time_ns":N}`. The time is the event's (or the detent's) decision time, in nanoseconds.
package final class KeyPreview: Sink {
    /// The names of the relative axes an input may move (`InputKeyBinding.axis`), by code.
    static let axisNames: [UInt16: String] = [6: "REL_HWHEEL", 7: "REL_DIAL", 8: "REL_WHEEL"]

    private var mapping: KeyMapping
    private let format: EventFormat
    private let output: OutputBuffer
    /// Lines shown so far (a tap is one line).
    package private(set) var shownCount = 0

    /// A preview of `mapping`'s keys, written to `output` in `format`.
    package init(mapping: KeyMapping, format: EventFormat, output: OutputBuffer) {
        self.mapping = mapping
        self.format = format
        self.output = output
    }

    /// Events only.
    package var consumesEdges: Bool { false }
    /// Each line is written in `consume`.
    package var writesOutputsAtOnce: Bool { output.writesEachLine }

    package func consume(_ output: PipelineOutput, nowNs: Int64) throws(SinkError) {
        let (reports, timeNs) = mapping.reports(for: output)
        guard !reports.isEmpty else { return }
        try show(reports, timeNs: timeNs)
    }

    /// Every key still down comes up as the run ends, as on the virtual keyboard.
    package func finish(atNs nowNs: Int64) throws(SinkError) {
        try show([mapping.releaseAll()].filter { !$0.isEmpty }, timeNs: nowNs)
        do { try output.flush() } catch { throw SinkError("cannot write the keys", error) }
    }

    /// One line per report, a report that puts keys down followed by one that lifts the same keys as
    /// one line (a tap).
    private func show(_ reports: [[KeyChange]], timeNs: Int64) throws(SinkError) {
        var index = 0
        while index < reports.count {
            let report = reports[index]
            let line: String
            if let first = report.first, let value = first.relativeValue {
                line = moved(axis: first.code, by: value, timeNs: timeNs)
                index += 1
            } else if index + 1 < reports.count, report.allSatisfy(\.down), reports[index + 1].allSatisfy({ !$0.down && $0.relativeValue == nil }),
                Set(reports[index + 1].map(\.code)) == Set(report.map(\.code))
            {
                line = changed("type", keys: report.map(\.code), timeNs: timeNs)
                index += 2
            } else {
                line = changed(report.allSatisfy(\.down) ? "press" : "release", keys: report.map(\.code), timeNs: timeNs)
                index += 1
            }
            output.appendUTF8(line)
            do { try output.endLine() } catch { throw SinkError("cannot write the keys", error) }
            shownCount += 1
        }
    }

    /// A line for keys going down (`press`), up (`release`), or both (`type`).
    private func changed(_ change: String, keys: [UInt16], timeNs: Int64) -> String {
        let names = keys.map { KeyCode.name(of: $0) ?? String($0) }
        switch format {
        case .text:
            return "  would \(change) \(names.joined(separator: "+"))"
        case .json:
            return "{\"event\":\"keys\",\"change\":\"\(change)\",\"keys\":[\(names.map(JSONText.quoted).joined(separator: ","))],\"time_ns\":\(timeNs)}"
        }
    }

    /// A line for a relative axis moved by `value` (positive: up).
    private func moved(axis code: UInt16, by value: Int32, timeNs: Int64) -> String {
        let name = Self.axisNames[code] ?? String(code)
        switch format {
        case .text:
            return "  would move \(name) by \(value > 0 ? "+" : "")\(value)"
        case .json:
            return "{\"event\":\"keys\",\"change\":\"move\",\"axis\":\(JSONText.quoted(name)),\"value\":\(value),\"time_ns\":\(timeNs)}"
        }
    }
}
