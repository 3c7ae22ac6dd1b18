/// What one input shows of itself to whatever presents inputs outside the daemon (Home Assistant
/// over MQTT today): its identity (by which its health is read too, `ButtonPipeline.health(input:)`),
/// the run lines it watches, and its entities. Made by the input's kind (`Sources/Inputs/<Kind>/`); a sink reads descriptions and never
/// names a kind.
package struct InputDescription: Sendable, Hashable {
    /// The input's name from the configuration (a topic level, an entity's name).
    package var name: String
    /// Its kind's word as events and logs print it (`InputKindID`'s).
    package var kind: String
    /// Its index in the run's one ordered list of inputs: `OutputSource.input` of its outputs.
    package var input: Int
    /// The run lines it watches (a matrix's keys): while any is away with its chip, the input is unavailable.
    package var lines: [Int]
    /// What it shows, in the order a sink announces them.
    package var entities: [EntityDescription]
    /// At most one message per this many nanoseconds on its `state` channel, the latest kept
    /// (a meter's `publish_interval`); nil: every change at once.
    package var stateIntervalNs: Int64?

    package init(
        name: String, kind: String, input: Int, lines: [Int], entities: [EntityDescription], stateIntervalNs: Int64? = nil
    ) {
        self.name = name
        self.kind = kind
        self.input = input
        self.lines = lines
        self.entities = entities
        self.stateIntervalNs = stateIntervalNs
    }

    /// The channels whose latest message is the input's state (every entity's but events'): what a
    /// sink keeps to send again after its connection comes back.
    package var stateChannels: Set<String> {
        Set(entities.compactMap { entity in
            if case .events = entity.value { return nil }
            return entity.channel
        })
    }
}
