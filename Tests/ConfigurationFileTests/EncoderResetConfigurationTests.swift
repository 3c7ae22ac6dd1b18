import ConfigurationFile
import Inputs
import DebounceCore
import Pipeline
import Testing

/// `reset_line:` and `reset_to:` on an encoder: read into a third line of the encoder's input, planned
/// as a debounced reset button, and refused with what to write when wrong.
@Suite struct EncoderResetConfigurationTests {
    @Test func theResetLineIsTheEncodersThirdLineDebouncedAsAButton() throws {
        let configuration = try ConfigurationLoader.load(
            """
            defaults: {debounce: "defer:7ms"}
            buttons:
              - {name: mute, line: 4}
            encoders:
              - {name: volume, lines: [17, 27], reset_line: GPIO22, min: 0, max: 100, reset_to: 50}
              - {name: menu, lines: [5, 6], reset_line: 13}
              - {name: tone, lines: [20, 21], min: 3, max: 9, reset_line: 26, reset_to: -4}
              - {name: plain, lines: [23, 24]}
            """, file: "r.yaml")
        #expect(configuration.encoders.map { $0.reset?.lineSettings.line } == ["GPIO22", "13", "26", nil])
        // 0 unless said; clamped into min/max.
        #expect(configuration.encoders.map { $0.reset?.position } == [50, 0, 3, nil])
        let roster = configuration.roster
        #expect(roster.encoders.map { $0.reset?.index } == [3, 6, 9, nil])
        #expect(roster.label(of: roster.lines[3].id) == "volume (reset)")
        #expect(roster.inputs[1].lines.count == 3 && roster.inputs[4].lines.count == 2)
        let plan = DaemonPlan(configuration)
        #expect(plan.plans[1] == LinePlan(debounce: nil, input: 1) && plan.plans[2] == LinePlan(debounce: nil, input: 1))
        #expect(plan.plans[3] == LinePlan(debounce: DebounceConfiguration(both: .defer(windowNs: 7_000_000)), role: .encoderReset(encoder: 0, position: 50), input: 1))
        #expect(plan.plans[6].role == .encoderReset(encoder: 1, position: 0))
        #expect(plan.plans[9].role == .encoderReset(encoder: 2, position: 3))
        #expect(plan.pipeline.encoders.map { [$0.lineA, $0.lineB] } == [[1, 2], [4, 5], [7, 8], [10, 11]])
    }

    @Test(arguments: [
        ("encoders: [{name: k, lines: [5, 6], reset_line: 5}]", "reset_line: is the encoder's line A"),
        ("encoders: [{name: k, lines: [5, 6], reset_line: 6}]", "reset_line: is the encoder's line B"),
        ("encoders: [{name: k, lines: [5, 6], reset_to: 3}]", "give its line too (`reset_line: GPIO22`)"),
        ("encoders: [{name: k, lines: [5, 6], reset_line: 7, reset_to: up}]", "reset_to"),
        ("encoders: [{name: k, lines: [5, 6], reset_line: [7, 8]}]", "reset_line"),
        ("encoders: [{name: k, lines: [5, 6], reset: 7}]", "reset_line"),
        ("buttons: [{name: b, line: 7}]\nencoders: [{name: k, lines: [5, 6], reset_line: 7}]", "encoders[0].reset_line: line 7 of the 40-pin header's chip is already the line of button 'b'"),
        ("encoders: [{name: j, lines: [7, 8]}, {name: k, lines: [5, 6], reset_line: 8}]", "encoders[1].reset_line: line 8"),
    ])
    func aBadResetIsRefusedWithWhatToWrite(yaml: String, message: String) {
        #expect {
            try ConfigurationLoader.load(yaml, file: "bad.yaml")
        } throws: { error in
            "\(error)".contains(message)
        }
    }

    /// A reload that adds, moves or changes a reset line changes the encoder (it starts afresh); one
    /// that keeps it carries all three lines.
    @Test func aReloadTreatsTheResetLineAsPartOfTheEncoder() throws {
        let old = try ConfigurationLoader.load("encoders: [{name: k, lines: [5, 6], reset_line: 7}]", file: "a.yaml").roster
        let same = try ConfigurationLoader.load("buttons: [{name: b, line: 9}]\nencoders: [{name: k, lines: [5, 6], reset_line: 7}]", file: "b.yaml").roster
        let kept = RosterChange(from: old, to: same)
        #expect(kept.kept == ["k"] && kept.previousLine == [nil, 0, 1, 2])
        for changed in ["encoders: [{name: k, lines: [5, 6], reset_line: 8}]", "encoders: [{name: k, lines: [5, 6], reset_line: 7, reset_to: 2}]",
            "encoders: [{name: k, lines: [5, 6]}]"]
        {
            let change = RosterChange(from: old, to: try ConfigurationLoader.load(changed, file: "c.yaml").roster)
            #expect(change.changed == ["k"], "\(changed)")
        }
    }
}
