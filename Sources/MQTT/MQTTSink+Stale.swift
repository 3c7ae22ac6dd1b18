import DebounceCore

/// Retained topics of inputs the daemon no longer has: their Home Assistant discovery under its own
/// node and their availability under its own base topic. Left on the broker, they keep an entity that
/// nothing publishes for any more, shown as available. Two ways find them, one clears them
/// (`clearStale`):
/// - at each connect, what the broker holds (`RetainedTopicSweep`): the sink subscribes to
///   `<prefix>/+/<node>/+/config` and `<base>/+/availability`, collects the retained messages that come
///   until 500 ms after the SUBACKs, unsubscribes, and empties every topic found that no input of the
///   configuration has now. This is what clears an input removed from the file across a restart.
///   With `--remove-discovery` no input is kept: everything found goes;
/// - at a reload (`adopt`), the topics of the inputs the previous configuration had.
/// Nothing outside the node's discovery and the base's `<base>/<input>/availability` is ever touched:
/// another daemon (another client id and base topic) on the same broker keeps its entities.
extension MQTTSink {
    /// The retained topics the inputs have now: their discovery messages and availability topics;
    /// none when removing discovery.
    var ownedRetainedTopics: Set<String> {
        guard mode == .run else { return [] }
        return Set(discovery.messages.map(\.topic) + inputAvailability.inputs.map { settings.availabilityTopic(input: $0.name) })
    }

    /// The topic filters of this daemon's own retained discovery and input availability.
    var ownRetainedFilters: [String] {
        var filters: [String] = []
        if case .prefix(let prefix) = settings.discovery { filters.append("\(prefix)/+/\(discovery.nodeID)/+/config") }
        filters.append(settings.availabilityTopic(input: "+"))
        return filters
    }

    /// After a connect: subscribes to `ownRetainedFilters`, and starts collecting what the broker holds.
    func beginSweep(atNs nowNs: Int64) {
        let filters = ownRetainedFilters
        var mids: [Int32] = []
        for filter in filters {
            let (code, mid) = connection.client.subscribe(topic: filter, qos: 1)
            guard code == .mosquittoSuccess else {
                logger.warning("mqtt: cannot subscribe to \(filter): \(MQTTError.text(code, errno: 0)); retained topics of removed inputs stay on the broker")
                for filter in filters { _ = connection.client.unsubscribe(topic: filter) }
                return
            }
            mids.append(mid)
        }
        sweep = RetainedTopicSweep(filters: filters, mids: mids, atNs: nowNs)
    }

    /// When the sweep is due: unsubscribes, and clears the topics found that no input has now.
    func finishSweep(ifDueAtNs nowNs: Int64) {
        guard let sweep, nowNs >= sweep.deadlineNs else { return }
        self.sweep = nil
        for filter in sweep.filters { _ = connection.client.unsubscribe(topic: filter) }
        guard sweep.isComplete else {
            logger.warning("mqtt: \(settings.url) did not acknowledge the subscriptions to \(sweep.filters.joined(separator: " and ")) within 5 s; retained topics of removed inputs stay on the broker")
            return
        }
        clearStale(sweep.found)
    }

    /// Empties every topic of `topics` that no input has now (`ownedRetainedTopics`): at once when
    /// connected, else at the next connect (`pendingRemoval`).
    func clearStale(_ topics: [String]) {
        let owned = ownedRetainedTopics
        let stale = topics.filter { !owned.contains($0) }.map { OutboundMessage(topic: $0, payload: [], retain: true) }
        guard !stale.isEmpty else { return }
        guard connection.state == .connected else {
            pendingRemoval += stale
            return
        }
        logger.info("mqtt: removing \(counted(stale.count, "retained topic")) of inputs the configuration no longer has: \(stale.map(\.topic).joined(separator: ", "))")
        publishRemoval(stale)
    }

    /// Publishes the empty retained `messages`, counting those on discovery topics as discovery messages.
    func publishRemoval(_ messages: [OutboundMessage]) {
        for message in messages { _ = publishControl(message) }
        discoveryCount += messages.count(where: { $0.topic.hasSuffix("/config") })
    }
}
