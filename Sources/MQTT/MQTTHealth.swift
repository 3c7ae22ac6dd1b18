import DebounceCore
import EventOutput
import InputModel
import Pipeline

/// Each input's health (`InputHealth`) as MQTT publishes it: retained JSON on `<base>/<input>/health`,
/// `{"edges":N,"bounces_absorbed":N,"glitches_rejected":N,"noise_bursts":N,"lost_events":N}`, at most
/// once per `intervalNs` and only when it changed since the last one published. Pure bookkeeping: the
/// sink reads the pipeline when `dueNs` comes and queues what `changes(_:atNs:)` returns.
package struct MQTTHealth: Sendable {
    /// One input: its name (in topics and the entity) and its identity in the pipeline
    /// (`OutputSource.input`), by which its health is read.
    package struct Input: Sendable, Hashable {
        package var name: String
        package var input: Int

        package init(name: String, input: Int) {
            self.name = name
            self.input = input
        }
    }

    /// How often at most an input's health is published: a minute, in nanoseconds.
    package static let defaultIntervalNs: Int64 = 60_000_000_000

    package let inputs: [Input]
    /// The least time between two publications, in nanoseconds.
    package let intervalNs: Int64
    /// What was last published for each input (`inputs`' order); `nil` before the first.
    private var published: [InputHealth?]
    /// When the health is next read, on the loop's clock: at the run's start (`begin(atNs:)`), then
    /// every `intervalNs`; `Int64.max` before the start.
    package private(set) var dueNs: Int64 = .max

    package init(inputs: [Input], intervalNs: Int64 = defaultIntervalNs) {
        self.inputs = inputs
        self.intervalNs = intervalNs
        self.published = Array(repeating: nil, count: inputs.count)
    }

    /// The run starts at `nowNs`: the first reading is due then.
    package mutating func begin(atNs nowNs: Int64) {
        dueNs = nowNs
    }

    /// Each input's health in `pipeline` at `nowNs`.
    package static func health(of input: Input, in pipeline: ButtonPipeline, atNs nowNs: Int64) -> InputHealth {
        pipeline.health(input: input.input, atNs: nowNs)
    }

    /// The inputs whose health changed since it was last published (all of them the first time), with
    /// their health; the next reading is due `intervalNs` from `nowNs`.
    package mutating func changes(in pipeline: ButtonPipeline, atNs nowNs: Int64) -> [(input: Input, health: InputHealth)] {
        dueNs = nowNs.adding(durationNs: intervalNs)
        var result: [(input: Input, health: InputHealth)] = []
        for (index, input) in inputs.enumerated() {
            let health = Self.health(of: input, in: pipeline, atNs: nowNs)
            guard health != published[index] else { continue }
            published[index] = health
            result.append((input, health))
        }
        return result
    }

    /// The JSON of `health`: `{"edges":N,"bounces_absorbed":N,"glitches_rejected":N,"noise_bursts":N,"lost_events":N}`,
    /// with `"invalid_readings":N` for an input whose lines make one reading (a selector).
    package static func payload(_ health: InputHealth) -> [UInt8] { health.json }
}
