import DebounceCore
import EventOutput
import Foundation
import Inputs
import Keys
import Pipeline
import Settings
import SystemPackage
import Testing

/// The keys a run would type, shown instead of typed (`run --simulate` without `/dev/uinput`).
@Suite struct KeyPreviewTests {
    static let enter: UInt16 = 28, leftControl: UInt16 = 29, c: UInt16 = 46, volumeUp: UInt16 = 115, volumeDown: UInt16 = 114, wheel: UInt16 = 8

    /// Button 2 (line 0) holds KEY_ENTER from press to release and types Ctrl+C on a double click;
    /// encoder 0 types the volume keys, encoder 1 moves the wheel.
    static let mapping = KeyMapping(
        bindings: [
            InputKeyBinding(input: 2, line: 0, on: "press", keys: [enter], isHeld: true),
            InputKeyBinding(input: 2, line: 0, on: "click", count: 2, keys: [leftControl, c]),
            InputKeyBinding(input: 0, on: "cw", keys: [volumeUp]), InputKeyBinding(input: 0, on: "ccw", keys: [volumeDown]),
            InputKeyBinding(input: 1, on: "rotate", axis: wheel),
        ],
        inputs: [
            ButtonPresenter(name: "enter", input: 2, chip: "sim", line: 0, lineIndex: 0, gestures: []),
            EncoderPresenter(name: "volume", input: 0, chip: "sim", lines: [1, 2]), EncoderPresenter(name: "scroll", input: 1, chip: "sim", lines: [3, 4]),
        ])
    static let button = OutputSource(input: 2, line: 0)

    static let outputs: [PipelineOutput] = [
        .event(button, ButtonEvent(kind: .press, timeNs: 10, onsetNs: 5)),
        .event(button, ButtonEvent(kind: .release, timeNs: 20, onsetNs: 15, heldNs: 10)),
        .event(button, ButtonEvent(kind: .click, timeNs: 30, onsetNs: 5, count: 1)),
        .event(button, ButtonEvent(kind: .click, timeNs: 40, onsetNs: 5, count: 2)),
        .rotation(OutputSource(input: 0, line: 1), EncoderEvent(direction: .counterClockwise, position: -1, timeNs: 50, onsetNs: 45)),
        .rotation(OutputSource(input: 1, line: 3), EncoderEvent(direction: .clockwise, position: 1, increment: 3, timeNs: 60, onsetNs: 55)),
        .event(button, ButtonEvent(kind: .press, timeNs: 70, onsetNs: 65)),
    ]

    /// Plays `outputs` through a preview in `format` and returns what it wrote; the run ends at 80 ns.
    static func shown(_ format: EventFormat) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("gd-keys-\(UUID().uuidString).out").path
        try "".write(toFile: path, atomically: false, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let descriptor = try FileDescriptor.open(FilePath(path), .writeOnly)
        let preview = KeyPreview(mapping: mapping, format: format, output: OutputBuffer(fileDescriptor: descriptor, flushThreshold: 0))
        for output in outputs { try preview.consume(output, nowNs: 0) }
        try preview.finish(atNs: 80)
        try descriptor.close()
        return try String(contentsOfFile: path, encoding: .utf8)
    }

    @Test func textShowsHeldKeysTapsAndAxes() throws {
        #expect(try Self.shown(.text) == """
              would press KEY_ENTER
              would release KEY_ENTER
              would type KEY_LEFTCTRL+KEY_C
              would type KEY_VOLUMEDOWN
              would move REL_WHEEL by +3
              would press KEY_ENTER
              would release KEY_ENTER

            """)
    }

    @Test func jsonHasTheChangeTheKeysAndTheEventsTime() throws {
        #expect(try Self.shown(.json) == """
            {"event":"keys","change":"press","keys":["KEY_ENTER"],"time_ns":10}
            {"event":"keys","change":"release","keys":["KEY_ENTER"],"time_ns":20}
            {"event":"keys","change":"type","keys":["KEY_LEFTCTRL","KEY_C"],"time_ns":40}
            {"event":"keys","change":"type","keys":["KEY_VOLUMEDOWN"],"time_ns":50}
            {"event":"keys","change":"move","axis":"REL_WHEEL","value":3,"time_ns":60}
            {"event":"keys","change":"press","keys":["KEY_ENTER"],"time_ns":70}
            {"event":"keys","change":"release","keys":["KEY_ENTER"],"time_ns":80}

            """)
    }
}
