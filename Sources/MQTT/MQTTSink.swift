import DebounceCore
import EventLoop
import EventOutput
import LinuxSys
import Logging
import InputModel
import Pipeline
import Settings
import SystemPackage

/// The sink that makes the daemon an MQTT device, on the event loop: it never blocks (see
/// `MQTTConnection` and `SocketWatch`); the one thing that could, looking up the broker's name, runs
/// on a thread of its own (`HostLookup`).
///
/// Topics (`MQTTSettings`): `online`
/// retained on `<base>/availability` after each connect, `offline` at a clean stop and as the
/// retained last will; each input's own on `<base>/<input>/availability` (`MQTTSink+Availability.swift`). Home Assistant discovery (`HomeAssistantDiscovery`) is published after each
/// connect and again whenever `<prefix>/status` says `online` (Home Assistant started). After each
/// connect, the retained discovery and availability of inputs it no longer has are emptied (`MQTTSink+Stale.swift`).
///
/// Inputs: the sink holds each input's presenter (`InputPresenter`, made by its kind) and finds it by
/// the output's input (`OutputSource.input`); what it says an output changes goes on
/// `<base>/<input>/<channel>` (`InputUpdate`): events not retained, states retained. A state of which
/// only the latest matters (a position, a meter's total) replaces one still waiting in
/// the queue (`OutboundQueue.appendLatest`); every event is kept, in order, within the queue's bound.
/// An input whose description sets `stateIntervalNs` (a meter's `publish_interval`) has at most one
/// state per interval (`PublishThrottle`: a change after a quiet interval goes at once, later ones
/// wait for the interval, only the latest kept; the loop wakes the sink at that deadline through
/// `nextDeadlineNs`, and a shutdown sends the one waiting at once). The sink names no input kind.
///
/// Nothing lost: events and states wait in an `OutboundQueue` (bounded by `queue:`; when full the
/// oldest waiting one goes, counted and logged) while the broker is unreachable, and go out in order
/// after reconnecting. Handed-over messages stay in libmosquitto until the broker acknowledges them
/// (QoS 1: PUBACK), and are sent again after a reconnect if the connection dropped before that; at
/// most `OutboundQueue.window` are in flight at once. At shutdown the sink is busy until every queued
/// message is acknowledged and `offline` is sent, or the loop's grace period ends. After every
/// reconnect the latest state of each entity is published again (retained), so that a broker that
/// restarted without persistence shows the true states at once, not only after the next change.
package final class MQTTSink: Sink {
    /// What the sink publishes.
    package enum Mode: Sendable, Hashable {
        /// Events, states, availability and discovery: the daemon.
        case run
        /// Only empty retained messages on the discovery topics (Home Assistant forgets the device)
        /// and `offline`: `run --remove-discovery`. Takes no events.
        case removeDiscovery
    }

    /// What the sink did so far.
    package struct Statistics: Sendable, Hashable {
        /// Events and states the broker acknowledged.
        package var delivered = 0
        /// Events and states dropped because the queue was full.
        package var dropped = 0
        /// States replaced by a newer one of the same topic before they were sent (only the latest mattered).
        package var superseded = 0
        /// Events and states waiting or in flight now.
        package var queued = 0
        /// Successful connects (the first one included).
        package var connects = 0
        /// Discovery messages published (or removed).
        package var discoveryMessages = 0
    }

    package let settings: MQTTSettings
    package let mode: Mode
    /// Each input's presenter, in the run's order.
    package internal(set) var presenters: [any InputPresenter]
    /// Each input's index in `presenters`, by its input (`OutputSource.input`).
    var presenterOfInput: [Int: Int]
    /// Each input's state throttle (`presenters`' order), for an input whose description sets
    /// `stateIntervalNs`: the latest state waiting for its interval.
    var stateThrottles: [PublishThrottle<InputUpdate>?]
    var discovery: HomeAssistantDiscovery
    /// Which inputs are watched now, for their availability topics (`MQTTSink+Availability.swift`).
    var inputAvailability: MQTTInputAvailability
    /// Each input's health, published as diagnostics (`MQTTSink+Health.swift`); `nil` when removing discovery.
    var health: MQTTHealth?
    /// The latest retained message of each state topic (every input's `stateChannels`), in the order
    /// the topics first came: published again after every
    /// reconnect, because a broker restarted without persistence has forgotten them (a retained
    /// message it still has is only replaced by the same).
    var retainedStates: [OutboundMessage] = []
    /// The index in `retainedStates` of each topic.
    var retainedIndex: [String: Int] = [:]
    let connection: MQTTConnection
    let logger: Logger
    var queue: OutboundQueue
    /// Availability and discovery messages in flight (they bypass the queue: they are rebuilt at each connect).
    var controlInFlight: Set<Int32> = []
    var discoveryCount = 0
    /// Discovery and availability of inputs a reload removed while the broker was unreachable: emptied at the next connect.
    var pendingRemoval: [OutboundMessage] = []
    /// What the broker holds under the daemon's own topics, collected after a connect (`MQTTSink+Stale.swift`).
    var sweep: RetainedTopicSweep?
    private var droppedLogged = 0
    private(set) var shuttingDown = false
    var offlineMid: Int32?
    var finished = false

    /// A sink publishing for `inputs` (each found by its `InputDescription.input`) to the broker of
    /// `settings`, with `softwareVersion` on the Home Assistant device. Reads the password and checks
    /// the CA file now: throws what must be fixed in the configuration. Connects at the loop's first
    /// wakeup.
    package init(
        settings: MQTTSettings, inputs: [any InputPresenter], softwareVersion: String, mode: Mode = .run,
        healthIntervalNs: Int64 = MQTTHealth.defaultIntervalNs, logger: Logger, resolve: @escaping HostLookup.Resolve = HostLookup.systemResolve
    ) throws(MQTTError) {
        self.settings = settings
        self.mode = mode
        self.presenters = inputs
        self.presenterOfInput = Self.indexByInput(inputs)
        self.stateThrottles = inputs.map { $0.description.stateIntervalNs.map { PublishThrottle(intervalNs: $0) } }
        self.logger = logger
        let descriptions = inputs.map(\.description)
        self.discovery = HomeAssistantDiscovery(settings: settings, inputs: descriptions, softwareVersion: softwareVersion)
        self.inputAvailability = MQTTInputAvailability(descriptions)
        self.queue = OutboundQueue(limit: settings.queueLimit)
        if mode == .run {
            health = MQTTHealth(inputs: descriptions.map { MQTTHealth.Input(name: $0.name, input: $0.input) }, intervalNs: healthIntervalNs)
        }
        let will = OutboundMessage(topic: settings.availabilityTopic, text: "offline", retain: true)
        connection = try MQTTConnection(settings: settings, will: will, logger: logger, resolve: resolve)
    }

    /// What the sink did so far.
    package var statistics: Statistics {
        Statistics(
            delivered: queue.acknowledged, dropped: queue.dropped, superseded: queue.superseded, queued: queue.count, connects: connection.connects,
            discoveryMessages: discoveryCount)
    }

    /// Why the broker cannot be used now (`nil` while connected or before the first attempt).
    package var lastError: MQTTError? { connection.lastError }

    /// Whether the sink is connected to the broker now.
    package var isConnected: Bool { connection.state == .connected }

    /// Whether the run ended with everything acknowledged, `offline` included, and a DISCONNECT: what
    /// `run --remove-discovery` reports as success.
    package internal(set) var disconnectedCleanly = false

    /// libmosquitto's version, e.g. "2.0.11", for logs and `--version`.
    package static var libraryVersion: String { MosquittoClient.libraryVersion }

    // MARK: Sink

    /// The broker's socket (through one epoll descriptor), and the host name lookup's.
    package var descriptors: [FileDescriptor] { finished ? [] : [connection.watch.descriptor, connection.lookup.descriptor] }
    /// Both are made with the connection and kept across reconnects.
    package var keepsDescriptorsOpen: Bool { true }

    /// The connection's next deadline (reconnect, keepalive), or a throttled state's or the
    /// next health reading's or the end of the retained-topic sweep's if sooner.
    package var nextDeadlineNs: Int64? {
        guard !finished else { return nil }
        var deadlineNs = connection.nextDeadlineNs
        if let healthNs = inspectionDueNs { deadlineNs = min(deadlineNs ?? healthNs, healthNs) }
        if let sweepNs = sweep?.deadlineNs { deadlineNs = min(deadlineNs ?? sweepNs, sweepNs) }
        for throttle in stateThrottles {
            guard let dueNs = throttle?.deadlineNs else { continue }
            deadlineNs = min(deadlineNs ?? dueNs, dueNs)
        }
        return deadlineNs
    }

    package var isBusy: Bool { !finished }

    package func descriptorReady(_ index: Int, events: PollEvents) {
        if index == 0 { connection.noteReady() } else { connection.noteLookupReady() }
    }

    /// Every input's state at the start goes out first (retained), so Home Assistant's entities show
    /// it before the first change.
    package func start(linesPressed: [Bool?], levels: [Level], atNs nowNs: Int64) {
        guard mode == .run else { return }
        health?.begin(atNs: nowNs)
        for (index, presenter) in presenters.enumerated() {
            for update in presenter.start(linesPressed: linesPressed) {
                if update.channel == Self.throttledChannel { stateThrottles[index]?.noteSent(atNs: nowNs) }
                enqueue(message(update, of: index), latestOnly: update.delivery == .latestState)
            }
        }
    }

    /// Events only.
    package var consumesEdges: Bool { false }

    package func consume(_ output: PipelineOutput, nowNs: Int64) {
        guard mode == .run, !shuttingDown, let source = output.source, let index = presenterOfInput[source.inputIndex] else { return }
        for update in presenters[index].updates(for: output) {
            publish(update, of: index, atNs: nowNs)
        }
    }

    package func consume(code: EnteredCode, of source: OutputSource, nowNs: Int64) {
        guard mode == .run, !shuttingDown, let index = presenterOfInput[source.inputIndex] else { return }
        for update in presenters[index].updates(for: code) {
            publish(update, of: index, atNs: nowNs)
        }
    }

    package func advance(toNs nowNs: Int64) {
        guard !finished else { return }
        if mode == .run, !shuttingDown { publishDueStates(atNs: nowNs) }
        var reports = connection.advance(toNs: nowNs)
        var index = 0
        while index < reports.count {
            handle(reports[index], atNs: nowNs, into: &reports)
            index += 1
        }
        if connection.state == .connected {
            finishSweep(ifDueAtNs: nowNs)
            pump()
            if shuttingDown, offlineMid == nil, queue.isEmpty, controlInFlight.isEmpty, sweep == nil {
                offlineMid = publishControl(OutboundMessage(topic: settings.availabilityTopic, text: "offline", retain: true))
            }
        }
        connection.flush(nowNs: nowNs, into: &reports)
        // What flushing reported (acknowledgements cannot come from a write; a loss can).
        while index < reports.count {
            handle(reports[index], atNs: nowNs, into: &reports)
            index += 1
        }
    }

    package func beginShutdown(atNs nowNs: Int64, graceEndNs: Int64) {
        // The throttled waiting states go now: a meter's last total is not lost.
        if mode == .run, !shuttingDown { publishDueStates(atNs: nowNs, all: true) }
        shuttingDown = true
        if !queue.isEmpty {
            logger.notice("mqtt: shutting down: waiting for \(counted(queue.count, "message")) to be acknowledged")
        }
    }

    /// Disconnects (sending `offline` first if it was not acknowledged yet), and logs what was not delivered.
    package func finish(atNs nowNs: Int64) {
        guard !finished else { return }
        if connection.state == .connected, offlineMid == nil || controlInFlight.contains(offlineMid ?? 0) {
            _ = publishControl(OutboundMessage(topic: settings.availabilityTopic, text: "offline", retain: true))
        }
        connection.close()
        finished = true
        let lost = queue.removeAll()
        if lost > 0 {
            logger.warning("mqtt: \(counted(lost, "event or state", "events and states")) were not acknowledged by \(settings.url) before the end")
        }
    }

    // MARK: Messages

    /// Queues the latest state of every topic again, after a reconnect.
    func republishStates() {
        guard !retainedStates.isEmpty, !shuttingDown else { return }
        logger.info("mqtt: connected again: publishing \(counted(retainedStates.count, "retained state")) again, in case the broker lost them")
        for message in retainedStates { enqueue(message) }
    }

    /// Queues `message`; with `latestOnly`, replacing the one waiting on its topic (`OutboundQueue.appendLatest`).
    func enqueue(_ message: OutboundMessage, latestOnly: Bool = false) {
        if message.retain {
            if let index = retainedIndex[message.topic] {
                retainedStates[index] = message
            } else {
                retainedIndex[message.topic] = retainedStates.count
                retainedStates.append(message)
            }
        }
        guard (latestOnly ? queue.appendLatest(message) : queue.append(message)) > 0 else { return }
        // Logged at the first drop and then every hundredth, so a long outage does not flood the log.
        if queue.dropped == 1 || queue.dropped - droppedLogged >= 100 {
            droppedLogged = queue.dropped
            logger.warning("mqtt: the queue of \(queue.limit) messages is full while \(settings.url) is unreachable: dropped the oldest (\(queue.dropped) so far)")
        }
    }

    /// Hands waiting events and states to the client while the in-flight window has room.
    private func pump() {
        while let message = queue.next {
            let (code, mid) = connection.client.publish(topic: message.topic, payload: message.payload, qos: Int32(settings.qos), retain: message.retain)
            if code == .mosquittoSuccess || (code == .mosquittoNoConnection && settings.qos > 0) {
                queue.handedOver(mid: mid)
                if code == .mosquittoNoConnection { return }
            } else {
                logger.error("mqtt: cannot publish on \(message.topic): \(MQTTError.text(code, errno: 0))")
                queue.handedOver(mid: mid)
                queue.acknowledge(mid: mid)
            }
        }
    }

    func publishDiscovery(_ messages: [OutboundMessage]) {
        for message in messages { _ = publishControl(message) }
        discoveryCount += messages.count
    }

    /// Publishes `message` outside the queue; returns its message id while it is in flight.
    func publishControl(_ message: OutboundMessage) -> Int32? {
        let (code, mid) = connection.client.publish(topic: message.topic, payload: message.payload, qos: Int32(settings.qos), retain: message.retain)
        guard code == .mosquittoSuccess || code == .mosquittoNoConnection else {
            logger.error("mqtt: cannot publish on \(message.topic): \(MQTTError.text(code, errno: 0))")
            return nil
        }
        controlInFlight.insert(mid)
        return mid
    }
}
