import ConfigurationFile
import Inputs
import DebounceCore
import Pipeline
import Testing

/// `restore: true` on an encoder: read, refused when misspelt, and the plan's start position from a
/// kept one, clamped into `min`/`max`.
@Suite struct EncoderRestoreConfigurationTests {
    @Test func restoreIsReadAndIsOffUnlessSaid() throws {
        let configuration = try ConfigurationLoader.load(
            """
            encoders:
              - {name: volume, lines: [17, 27], min: 0, max: 100, restore: true}
              - {name: menu, lines: [5, 6]}
              - {name: balance, lines: [12, 13], restore: false}
            """, file: "r.yaml")
        #expect(configuration.encoders.map(\.restore) == [true, false, false])
    }

    @Test(arguments: [
        ("encoders: [{name: k, lines: [5, 6], restore: maybe}]", "'maybe' is not allowed; allowed: true, false"),
        ("encoders: [{name: k, lines: [5, 6], restore: [true]}]", "must be a single value"),
        ("encoders: [{name: k, lines: [5, 6], restored: true}]", "restore"),
    ])
    func aBadRestoreIsRefusedWithWhatToWrite(yaml: String, message: String) {
        #expect {
            try ConfigurationLoader.load(yaml, file: "bad.yaml")
        } throws: { error in
            "\(error)".contains(message) && "\(error)".contains("restore")
        }
    }

    /// The plan starts each encoder from its kept position, clamped into its range; one with none
    /// kept from 0 clamped. Positions are by input (the encoders are the roster's inputs 0 to 3).
    @Test func thePlanStartsFromTheKeptPositionClampedIntoTheRange() throws {
        let configuration = try ConfigurationLoader.load(
            """
            encoders:
              - {name: volume, lines: [17, 27], min: 0, max: 100, restore: true}
              - {name: tone, lines: [5, 6], min: -10, max: 10, restore: true}
              - {name: shift, lines: [12, 13], min: 3, max: 9, restore: true}
              - {name: free, lines: [20, 21], restore: true}
            """, file: "r.yaml")
        #expect(DaemonPlan(configuration).pipeline.encoders.map(\.initialPosition) == [0, 0, 3, 0])
        let plan = DaemonPlan(configuration, starts: [0: 150, 1: -42, 3: -7_000_000_000])
        #expect(plan.pipeline.encoders.map(\.initialPosition) == [100, -10, 3, -7_000_000_000])
        #expect(DaemonPlan(configuration, starts: [0: 37, 9: 5]).pipeline.encoders.map(\.initialPosition) == [37, 0, 3, 0])
        // The pipeline's decoders start there.
        let pipeline = ButtonPipeline(
            plans: plan.plans, encoders: plan.pipeline.encoders, initialLevels: Array(repeating: .high, count: plan.plans.count), atNs: 0)
        #expect((0..<4).map { pipeline.decoder(encoder: $0).position } == [100, -10, 3, -7_000_000_000])
    }
}
