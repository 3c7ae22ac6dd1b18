import ConfigurationFile
import Inputs
import DebounceCore
import Pipeline

/// Every input's health (`InputHealth`) by the roster: what `run` logs at its stop and on `SIGUSR1`,
/// and what MQTT publishes as diagnostics. An input of one line is its line's health; an
/// encoder is its decoder's (its two lines as one input); a scanned matrix its keys' together.
package struct InputHealthReport: Sendable {
    /// One input: its name, its kind's noun (`button`, `encoder`, …), its health.
    package struct Entry: Sendable, Hashable {
        package var name: String
        package var noun: String
        package var health: InputHealth

        package init(name: String, noun: String, health: InputHealth) {
            self.name = name
            self.noun = noun
            self.health = health
        }
    }

    /// The inputs, in the roster's order.
    package var entries: [Entry]

    /// The health of `roster`'s inputs in `pipeline` at `timeNs` (the loop's time).
    package init(_ roster: Roster, pipeline: ButtonPipeline, atNs timeNs: Int64) {
        // By the input's identity in the pipeline (`DaemonPlan` gives every line and encoder its input):
        // a scanned matrix's keys' counts together, the edges being the changes its scans found.
        entries = roster.inputs.enumerated().map { index, input in
            Entry(name: input.name, noun: input.kind.noun, health: pipeline.health(input: index, atNs: timeNs))
        }
    }

    /// One log line per input: `health of button doorbell: 14 edges, 10 bounces absorbed, 1 glitch
    /// rejected, 0 noise bursts, 0 events lost by the kernel` (without glitches and noise where they
    /// are not counted: an encoder's; with `N invalid readings` where an input's lines make one reading).
    package var lines: [String] { entries.map(Self.line) }

    /// The log line of one input.
    package static func line(_ entry: Entry) -> String {
        let health = entry.health
        var parts = [counted(health.edges, "edge"), "\(counted(health.bouncesAbsorbed, "bounce")) absorbed"]
        if health.countsGlitches {
            parts.append("\(counted(health.glitchesRejected, "glitch", "glitches")) rejected")
            parts.append(counted(health.noiseBursts, "noise burst"))
        }
        if let invalid = health.invalidReadings { parts.append(counted(invalid, "invalid reading")) }
        parts.append("\(counted(health.lostEvents, "event")) lost by the kernel")
        return "health of \(entry.noun) \(entry.name): " + parts.joined(separator: ", ")
    }
}
