import Foundation
import Testing

/// `replay` runs a trace through the same pipeline as a live line, and through a configuration's button.
@Suite struct ReplayThroughPipelineTests {
    /// A press at 1 ms (bouncing for 1 µs), held until 3 s.
    static let heldPress = "0,1\n1000000,0\n1000500,1\n1001000,0\n3000000000,1\n"

    static func configuration(_ text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("replay-\(UUID().uuidString).yaml").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static let oneButton = """
        buttons:
          - name: door
            line: 17
            debounce: defer:10ms
            hold: 1s
            repeat: {delay: 1s, interval: 500ms}
            actions:
              - on: hold
                run: [touch, MARKER]
              - on: press
                shell: 'echo pressed'
        """

    @Test func aTraceThatStartsHeldGivesNoReleaseWithoutAPress() throws {
        // Held (0) at the start, released at 1 ms, pressed again at 50 ms: as `watch` would report it.
        let result = try CLITests.run(["replay", "--format", "json", "--debounce", "defer:5ms"], input: "0,0\n1000000,1\n50000000,0\n")
        #expect(result.status == 0)
        #expect(try CLITests.decode(result.stdout).map(\.event) == ["press"])
        let text = try CLITests.run(["replay", "--debounce", "defer:5ms"], input: "0,0\n1000000,1\n")
        #expect(text.stdout.isEmpty)
        #expect(text.stderr.contains("0 presses, 0 releases from 1 raw edge; the button was down when the trace began"))
    }

    @Test func aConfiguredButtonsGesturesAndActionsAreShownNotRun() throws {
        let marker = FileManager.default.temporaryDirectory.appendingPathComponent("replay-marker-\(UUID().uuidString)").path
        let path = try Self.configuration(Self.oneButton.replacingOccurrences(of: "MARKER", with: marker))
        let result = try CLITests.run(["replay", "-", "--config", path, "--format", "json"], input: Self.heldPress)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        let kinds = lines.map { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["event"] as? String ?? "?"
        }
        // Hold at 1.001 s; repeats from 1.001 s every 500 ms until the release is decided (3.010 s): five,
        // each in its own time (a run in virtual time wakes at each, as a live one does); the release of
        // the held press is also a long release.
        #expect(kinds == ["press", "action", "hold", "action", "repeat", "repeat", "repeat", "repeat", "repeat", "release", "long_release"])
        #expect(lines[0].contains("\"button\":\"door\""))
        #expect(lines[3].contains("\"arguments\":[\"touch\",\"\(marker)\"]"))
        #expect(!FileManager.default.fileExists(atPath: marker), "replay must never run an action")
        let text = try CLITests.run(["replay", "-", "--config", path], input: Self.heldPress)
        #expect(text.stdout.contains("  would run \"door.press\": /bin/sh -c 'echo pressed'"))
    }

    @Test func severalButtonsNeedButton() throws {
        let path = try Self.configuration("""
            buttons:
              - {name: a, line: 17}
              - {name: b, line: 27, hold: 1s}
            """)
        let ambiguous = try CLITests.run(["replay", "-", "--config", path], input: Self.heldPress)
        #expect(ambiguous.status == 64)
        #expect(ambiguous.stderr.contains("has 2 inputs of one line: say which with --input (a, b)"))
        let unknown = try CLITests.run(["replay", "-", "--config", path, "--input", "c"], input: Self.heldPress)
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("no input of one line (a trace is of one line) named \"c\"; it has: a, b"))
        let chosen = try CLITests.run(["replay", "-", "--config", path, "--input", "b", "--format", "json"], input: Self.heldPress)
        #expect(chosen.stdout.contains("\"event\":\"hold\""))
        #expect(chosen.stdout.contains("\"button\":\"b\""))
        let oldName = try CLITests.run(["replay", "-", "--config", path, "--button", "b", "--format", "json"], input: Self.heldPress)
        #expect(oldName.stdout == chosen.stdout, "--button, the old name of --input, still chooses the input")
        let both = try CLITests.run(["replay", "-", "--config", path, "--button", "b", "--input", "a"], input: Self.heldPress)
        #expect(both.status == 64 && both.stderr.contains("--button is the old name of --input: give one of them."), "\(both.stderr)")
    }

    @Test func configAndDebounceOptionsDoNotMix() throws {
        let path = try Self.configuration(Self.oneButton)
        let result = try CLITests.run(["replay", "-", "--config", path, "--debounce", "defer:1ms"], input: Self.heldPress)
        #expect(result.status == 64)
        #expect(result.stderr.contains("the input's own debounce and polarity apply"))
        let input = try CLITests.run(["replay", "-", "--input", "door"], input: Self.heldPress)
        #expect(input.status == 64 && input.stderr.contains("--input names an input of a configuration: add --config FILE."), "\(input.stderr)")
    }

    @Test func aBadLineEndsTheRunWithWhatWasDecidedBeforeIt() throws {
        // The press is decided at 11 ms; the release edge at 100 ms is still pending when line 4 is bad.
        let result = try CLITests.run(["replay", "--format", "json", "--debounce", "defer:10ms"], input: "0,1\n1000000,0\n100000000,1\nbad\n")
        #expect(result.status == 65)
        #expect(try CLITests.decode(result.stdout).map(\.event) == ["press"])
        #expect(result.stderr.contains("<stdin>:4:"))
    }

    static let doorAndMeter = """
        sensors:
          - {name: front-door, line: 23, on_delay: 2s, device_class: door, actions: [{on: on, run: [touch, /nonexistent/marker]}]}
        counters:
          - {name: energy, line: 24, per_unit: 1000, unit: kWh, device_class: energy}
        """

    /// A recorded door contact through its sensor's stages: the state at the start, an opening of
    /// 0.8 s (with bounce) shorter than on_delay never reported, a longer one reported 2 s after it began.
    @Test func aSensorsTraceGivesItsStatesAfterTheirDelays() throws {
        let path = try Self.configuration(Self.doorAndMeter)
        let trace = "0,0\n100000000,1\n100200000,0\n100400000,1\n900000000,0\n1000000000,1\n4000000000,0\n"
        let result = try CLITests.run(["replay", "-", "--config", path, "--input", "front-door", "--format", "json"], input: trace)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == """
            {"event":"state","state":"off","time_ns":0,"onset_ns":0,"initial":true,"sensor":"front-door"}
            {"event":"state","state":"on","time_ns":3000000000,"onset_ns":1000000000,"previous_ns":0,"sensor":"front-door"}
            {"event":"action","action":"front-door.on","arguments":["touch","/nonexistent/marker"],"on":"on","time_ns":3000000000}
            {"event":"state","state":"off","time_ns":4050000000,"onset_ns":4000000000,"previous_ns":3000000000,"sensor":"front-door"}

            """)
    }

    /// A recorded meter through its counter: one count per pulse, the second pulse's bounce counted
    /// once; its power from the interval between their onsets (0.5 s at 1000 imp/kWh: 7.2 kW), and no
    /// fall after the trace's end.
    @Test func aCountersTraceGivesOneCountPerPulse() throws {
        let path = try Self.configuration(Self.doorAndMeter)
        let trace = "0,1\n100000000,0\n140000000,1\n600000000,0\n600100000,1\n600200000,0\n640000000,1\n"
        let result = try CLITests.run(["replay", "-", "--config", path, "--input", "energy", "--format", "json"], input: trace)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == """
            {"event":"count","total":1,"value":0.001,"rate_per_min":0,"rate":0,"rate_unit":"W","time_ns":110000000,"onset_ns":100000000,"counter":"energy"}
            {"event":"count","total":2,"value":0.002,"rate_per_min":120,"rate":7200,"rate_unit":"W","time_ns":610200000,"onset_ns":600000000,"counter":"energy"}

            """)
    }

    /// A recorded meter through a counter with actions: each pulse shows its `on: pulse` and `on: rate`
    /// actions after its count, none of them run.
    @Test func aCountersTraceShowsItsActions() throws {
        let path = try Self.configuration("""
            counters:
              - name: energy
                line: 24
                actions:
                  - {on: pulse, run: [touch, /nonexistent/pulse]}
                  - {on: rate, run: [touch, /nonexistent/rate]}
            """)
        let trace = "0,1\n100000000,0\n140000000,1\n600000000,0\n640000000,1\n"
        let result = try CLITests.run(["replay", "-", "--config", path, "--format", "json"], input: trace)
        #expect(result.status == 0, "\(result.stderr)")
        let shown = result.stdout.split(separator: "\n").map { $0.split(separator: ",").first ?? "" }
        #expect(shown == [#"{"event":"count""#, #"{"event":"action""#, #"{"event":"action""#, #"{"event":"count""#, #"{"event":"action""#, #"{"event":"action""#])
        #expect(result.stdout.contains(#"{"event":"action","action":"energy.pulse","arguments":["touch","/nonexistent/pulse"],"on":"pulse","time_ns":610000000}"#))
        #expect(result.stdout.contains(#"{"event":"action","action":"energy.rate","arguments":["touch","/nonexistent/rate"],"on":"pulse","time_ns":610000000}"#))
    }

    /// The summary of a sensor's or a counter's trace speaks of its contact or its pulses, not of a
    /// button's presses.
    @Test func aSensorsAndACountersSummarySayWhatTheyAre() throws {
        let path = try Self.configuration(Self.doorAndMeter)
        let door = "0,0\n100000000,1\n100200000,0\n100400000,1\n900000000,0\n1000000000,1\n4000000000,0\n"
        let sensor = try CLITests.run(["replay", "-", "--config", path, "--input", "front-door"], input: door)
        #expect(sensor.status == 0, "\(sensor.stderr)")
        #expect(sensor.stderr == "2 changes to on, 2 to off from 6 raw edges (debounced, before on_delay and off_delay)\n", "\(sensor.stderr)")
        let meter = "0,1\n100000000,0\n140000000,1\n600000000,0\n600100000,1\n600200000,0\n640000000,1\n"
        let counter = try CLITests.run(["replay", "-", "--config", path, "--input", "energy"], input: meter)
        #expect(counter.status == 0, "\(counter.stderr)")
        #expect(counter.stderr == "2 pulses from 6 raw edges\n", "\(counter.stderr)")
        let heldDoor = try CLITests.run(["replay", "-", "--config", path, "--input", "front-door"], input: "0,1\n1000000,0\n")
        #expect(heldDoor.stderr == "0 changes to on, 1 to off from 1 raw edge (debounced, before on_delay and off_delay)\n", "\(heldDoor.stderr)")
    }
}
