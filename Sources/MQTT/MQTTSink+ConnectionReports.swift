import DebounceCore

extension MQTTSink {
    /// What the sink does on each of the connection's reports: after a connect, its availability,
    /// discovery and (after a reconnect) its states again, then the sweep of stale topics; a lost
    /// connection keeps the queue; an acknowledgement ends a message's flight (the last, `offline`,
    /// ends the run's connection); a message on Home Assistant's status topic publishes discovery again.
    func handle(_ report: MQTTConnection.Report, atNs nowNs: Int64, into reports: inout [MQTTConnection.Report]) {
        switch report {
        case .connected:
            if let statusTopic = settings.homeAssistantStatusTopic, mode == .run {
                _ = connection.client.subscribe(topic: statusTopic, qos: 1)
            }
            if mode == .run {
                _ = publishControl(OutboundMessage(topic: settings.availabilityTopic, text: "online", retain: true))
                publishInputAvailability()
                let owned = ownedRetainedTopics
                publishRemoval(pendingRemoval.filter { !owned.contains($0.topic) })
                pendingRemoval.removeAll()
                publishDiscovery(discovery.messages)
                if connection.connects > 1 { republishStates() }
            } else {
                publishDiscovery(discovery.removal)
                publishInputAvailability()
            }
            // After this connect's own retained messages: what else the broker holds under the daemon's topics.
            beginSweep(atNs: nowNs)
        case .lost:
            sweep = nil  // its subscriptions ended with the session; the next connect sweeps again
            // libmosquitto keeps what is in flight and sends it again after the next CONNACK.
            if !queue.isEmpty { logger.notice("mqtt: \(counted(queue.count, "event or state", "events and states")) kept until the broker is back") }
        case .published(let mid):
            if controlInFlight.remove(mid) != nil {
                if mid == offlineMid {
                    connection.close()
                    finished = true
                    disconnectedCleanly = queue.isEmpty
                    logger.info("mqtt: disconnected from \(settings.url) (\(counted(queue.acknowledged, "event or state", "events and states")) delivered)")
                }
            } else {
                queue.acknowledge(mid: mid)
            }
        case .subscribed(let mid):
            sweep?.noteSubscribed(mid: mid, atNs: nowNs)
        case .message(let topic, let payload, let retained):
            if sweep?.note(topic: topic, payload: payload, retained: retained) == true { return }
            if topic == settings.homeAssistantStatusTopic, payload == Array("online".utf8), mode == .run, !shuttingDown {
                logger.info("mqtt: Home Assistant is online: publishing discovery again")
                publishDiscovery(discovery.messages)
            }
        }
    }
}
