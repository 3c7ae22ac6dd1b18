import Actions
import DebounceCore
import EventLoop
import EventOutput
import Foundation
import InputModel
import Inputs
import Pipeline
import Settings
import SystemPackage
import Testing

/// How bindings match an input's outputs, seen through the preview: the input, the line when a binding
/// names one (a key), the word or its wider one, and a click's count when asked.
@Suite struct ActionPreviewTests {
    /// Keypad `door` (input 2) whose `#` key (line 7) has an action on a double click, `1` (line 5) one
    /// on any press, and whose codes have one; encoder `volume` (input 0) one on `rotate`.
    static let bindings = [
        InputActionBinding(input: 2, line: 7, on: "click", count: 2, action: 0), InputActionBinding(input: 2, line: 5, on: "press", action: 1),
        InputActionBinding(input: 2, on: "code", action: 2), InputActionBinding(input: 0, on: "rotate", action: 3),
    ]
    static let actions = ["door.hash", "door.one", "door.code", "volume.rotate"].map { Action(name: $0, arguments: ["/bin/true"]) }
    static let inputs: [any InputPresenter] = [
        KeypadPresenter(name: "door", input: 2, keys: Array("1#"), lineIndices: [5, 7], collectsCodes: true, publishesCode: false, namesKey: { _ in true }),
        EncoderPresenter(name: "volume", input: 0, chip: "sim", lines: [0, 1], lineIndices: [0, 1]),
    ]

    /// The `on` and `time_ns` of each action a preview of `outputs` (and `codes`, after them) shows.
    static func shown(_ outputs: [PipelineOutput], codes: [(EnteredCode, OutputSource)] = []) throws -> [String] {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("gd-preview-\(UUID().uuidString).out").path
        try "".write(toFile: path, atomically: false, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let descriptor = try FileDescriptor.open(FilePath(path), .writeOnly)
        let preview = ActionPreview(
            actions: actions, bindings: bindings, inputs: inputs, format: .json, output: OutputBuffer(fileDescriptor: descriptor, flushThreshold: 0))
        for output in outputs { try preview.consume(output, nowNs: 0) }
        for (code, source) in codes { try preview.consume(code: code, of: source, nowNs: 0) }
        try preview.finish(atNs: 0)
        try descriptor.close()
        return try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map { line in
            String(line.split(separator: ",").filter { $0.hasPrefix("\"action\"") || $0.hasPrefix("\"on\"") || $0.hasPrefix("\"time_ns\"") }.joined(separator: ","))
        }
    }

    @Test func aKeysBindingMatchesItsLineItsWordAndItsCountOnly() throws {
        let key = { (line: Int, kind: ButtonEvent.Kind, count: Int, time: Int64) in
            PipelineOutput.event(OutputSource(input: 2, line: line), ButtonEvent(kind: kind, timeNs: time, onsetNs: 0, count: count))
        }
        let shown = try Self.shown([
            key(7, .press, 0, 1),  // `#` pressed: only `1` has a press action
            key(7, .click, 1, 2),  // a single click of `#`: its action wants two
            key(7, .click, 2, 3),  // the double click
            key(5, .press, 0, 4),  // `1` pressed
            key(5, .click, 2, 5),  // `1` double-clicked: the double click's action is `#`'s
            .event(OutputSource(input: 3, line: 7), ButtonEvent(kind: .click, timeNs: 6, onsetNs: 0, count: 2)),  // another input, same line
        ])
        #expect(shown == [#""action":"door.hash","on":"click","time_ns":3}"#, #""action":"door.one","on":"press","time_ns":4}"#])
    }

    @Test func aCodeAndADetentMatchTheirInputsBindings() throws {
        let detent = EncoderEvent(direction: .clockwise, position: 1, velocity: 0, timeNs: 8, onsetNs: 7)
        let shown = try Self.shown(
            [.rotation(OutputSource(input: 0, line: 0), detent), .rotation(OutputSource(input: 1, line: 0), detent)],
            codes: [(EnteredCode(code: "11", timeNs: 9), OutputSource(input: 2, line: 5)), (EnteredCode(code: "11", timeNs: 10), OutputSource(input: 0, line: 0))])
        #expect(shown == [#""action":"volume.rotate","on":"cw","time_ns":8}"#, #""action":"door.code","on":"code","time_ns":9}"#])
    }
}
