/// A reload that keeps the MQTT settings keeps the sink, with its connection and queue.
extension MQTTSink {
    /// Takes the inputs of `next`, a sink made for the configuration a reload read (with the same
    /// settings, never connected), keeping this sink's connection, queue and statistics: the discovery
    /// and availability of the inputs `next` no longer has are removed (empty retained messages,
    /// `clearStale`, as a connect's sweep of the broker removes them), `next`'s discovery and
    /// availability are published, and the states of the inputs gone are no longer published again
    /// after a reconnect. The next run's start publishes the added inputs' states.
    package func adopt(_ next: MQTTSink) {
        precondition(next.settings == settings && next.mode == mode, "a reload keeps the sink only with the same settings")
        let previous = ownedRetainedTopics
        (presenters, presenterOfInput, stateThrottles) = (next.presenters, next.presenterOfInput, next.stateThrottles)
        discovery = next.discovery
        inputAvailability = next.inputAvailability
        health = next.health  // read and published from the next run's start
        let stateTopics = Set(presenters.flatMap { presenter in
            presenter.description.stateChannels.map { settings.topic(input: presenter.description.name, channel: $0) }
        })
        retainedStates.removeAll { !stateTopics.contains($0.topic) }
        retainedIndex = Dictionary(uniqueKeysWithValues: retainedStates.enumerated().map { ($1.topic, $0) })
        // What the previous configuration's inputs had and the next one's do not: emptied now, or at
        // the next connect (with the next one's discovery) while the broker is unreachable.
        clearStale(previous.sorted())
        guard mode == .run, connection.state == .connected else { return }
        publishInputAvailability()
        publishDiscovery(discovery.messages)
    }
}
