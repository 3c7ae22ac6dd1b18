import DebounceCore
import EventLoop
import EventOutput
import LinuxSys
import Logging
import Pipeline
import Settings
import SystemPackage

/// The sink that makes the daemon an MQTT device, on the event loop: it never blocks (see
/// `MQTTConnection` and `SocketWatch`); the one thing that could, looking up the broker's name, runs
/// on a thread of its own (`HostLookup`).
///
/// Topics (`MQTTSettings`): each event as JSON (the `--format json` schema) on
/// `<base>/<button>/event`; `pressed`/`released` retained on `<base>/<button>/state` (at the start,
/// then at each press and release); `online`
/// retained on `<base>/availability` after each connect, `offline` at a clean stop and as the
/// retained last will; each input's own on `<base>/<input>/availability` (`MQTTSink+Availability.swift`). Home Assistant discovery (`HomeAssistantDiscovery`) is published after each
/// connect and again whenever `<prefix>/status` says `online` (Home Assistant started). After each
/// connect, the retained discovery and availability of inputs it no longer has are emptied (`MQTTSink+Stale.swift`).
///
/// Encoders (`MQTTEncoder`, found by their input, `OutputSource.input`): each detent as JSON on
/// `<base>/<encoder>/event`, and the position after it retained on `<base>/<encoder>/position` (at the
/// start too, from `MQTTEncoder.startPosition`). Only the latest position matters, so a position
/// still waiting in the queue is replaced by the next one (`OutboundQueue.appendLatest`); every
/// detent's event is kept, in order, within the queue's bound like a button's events.
///
/// Contacts (`MQTTSensor`, indexed by their run line, `PipelineOutput.contact`'s `line`): the state,
/// `on` or `off`, retained on `<base>/<sensor>/state` (at the start from the level read then, then at
/// each change), and each change's JSON (`EventWriter.jsonObject(contact:initial:fields:)`: onset,
/// how long the previous state lasted) on `<base>/<sensor>/event`, not retained.
///
/// Pulse counters (`MQTTCounter`, indexed by their run line, `PipelineOutput.count`'s and `.rate`'s
/// `line`): the state retained on `<base>/<counter>/state` as `{"total":N,"value":V,"rate_per_min":R,"rate":P}`
/// (`MQTTCounter.statePayload`), at the start from `MQTTCounter.startTotal`, then at each pulse and
/// each fall of the rate, at most one per
/// `MQTTCounter.publishIntervalNs` (`PublishThrottle`: a pulse after a quiet interval goes at once,
/// later ones wait for the interval, only the latest kept; the loop wakes the sink at that deadline
/// through `nextDeadlineNs`, and a shutdown sends the one waiting at once). A state waiting in the
/// queue is replaced by a newer one (`OutboundQueue.appendLatest`). Pulses have no event topic.
///
/// Matrix keypads (`MQTTKeypad`, their keys found by their run lines, their codes by their input,
/// `OutputSource.input`): each key press and each entered code on `<base>/<keypad>/event`,
/// not retained, as Home Assistant's `event` entity reads them (`MQTTSink+Keypads.swift`).
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
        /// Encoder positions replaced by a newer one before they were sent.
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
    var buttons: [MQTTButton]
    /// Each button's fields in its events' JSON, formatted once.
    var eventFields: [EventFields]
    /// The index in `buttons` of each button's run line.
    var buttonByLine: [Int: Int]
    var encoders: [MQTTEncoder]
    /// Each encoder's fields in its detents' JSON, formatted once.
    var encoderFields: [EventFields]
    /// Each encoder's index in `encoders`, by its input (`OutputSource.input`).
    let encoderOfInput: [Int: Int]
    var sensors: [MQTTSensor]
    /// Each sensor's fields in its changes' JSON, formatted once.
    var sensorFields: [EventFields]
    /// The index in `sensors` of each contact's run line.
    var sensorByLine: [Int: Int]
    var counters: [MQTTCounter]
    /// The index in `counters` of each counter's run line.
    var counterByLine: [Int: Int]
    /// Each counter's state throttle (`counters`' order): the latest pulse waiting for its interval.
    var counterThrottles: [PublishThrottle<MQTTCounter.State>]
    /// The keypads, in the run's keypads' order.
    var keypads: [MQTTKeypad]
    /// Each keypad's index in `keypads`, by its input (`OutputSource.input`).
    let keypadOfInput: [Int: Int]
    /// The keypad and key of each key's run line.
    var keyByLine: [Int: MQTTKeypad.Place]
    var discovery: HomeAssistantDiscovery
    /// Which inputs are watched now, for their availability topics (`MQTTSink+Availability.swift`).
    var inputAvailability: MQTTInputAvailability
    /// Each input's health, published as diagnostics (`MQTTSink+Health.swift`); `nil` when removing discovery.
    var health: MQTTHealth?
    /// The latest retained message of each state topic (buttons' and contacts' states, counters'
    /// totals, encoders' positions), in the order the topics first came: published again after every
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

    /// A sink publishing for `buttons`, `sensors` and `counters` (each knowing its run line,
    /// `lineIndex`), `encoders` (in the order of the run's encoders, `EncoderPlan`'s) and `keypads`
    /// (in the order of the run's keypads, each knowing its keys' run lines) to the
    /// broker of `settings`, with `softwareVersion` on the Home Assistant device. Reads the password
    /// and checks the CA file now: throws what must be fixed in the configuration. Connects at the
    /// loop's first wakeup.
    package init(
        settings: MQTTSettings, buttons: [MQTTButton], encoders: [MQTTEncoder] = [], sensors: [MQTTSensor] = [], counters: [MQTTCounter] = [],
        keypads: [MQTTKeypad] = [], softwareVersion: String, mode: Mode = .run, healthIntervalNs: Int64 = MQTTHealth.defaultIntervalNs, logger: Logger,
        resolve: @escaping HostLookup.Resolve = HostLookup.systemResolve
    ) throws(MQTTError) {
        self.settings = settings
        self.mode = mode
        self.buttons = buttons
        self.eventFields = buttons.map(\.eventFields)
        self.encoders = encoders
        self.encoderFields = encoders.map(\.eventFields)
        self.encoderOfInput = Dictionary(encoders.enumerated().map { ($1.input ?? $0, $0) }, uniquingKeysWith: { first, _ in first })
        self.sensors = sensors
        self.sensorFields = sensors.map(\.eventFields)
        self.buttonByLine = Dictionary(buttons.enumerated().map { ($1.lineIndex, $0) }, uniquingKeysWith: { first, _ in first })
        self.sensorByLine = Dictionary(sensors.enumerated().map { ($1.lineIndex, $0) }, uniquingKeysWith: { first, _ in first })
        self.counters = counters
        self.counterByLine = Dictionary(counters.enumerated().map { ($1.lineIndex, $0) }, uniquingKeysWith: { first, _ in first })
        self.counterThrottles = counters.map { PublishThrottle(intervalNs: $0.publishIntervalNs) }
        self.keypads = keypads
        self.keyByLine = MQTTKeypad.places(keypads)
        self.keypadOfInput = Dictionary(keypads.enumerated().map { ($1.input ?? $0, $0) }, uniquingKeysWith: { first, _ in first })
        self.logger = logger
        self.discovery = HomeAssistantDiscovery(
            settings: settings, buttons: buttons, encoders: encoders, sensors: sensors, counters: counters, keypads: keypads,
            softwareVersion: softwareVersion)
        self.inputAvailability = MQTTInputAvailability(buttons: buttons, encoders: encoders, sensors: sensors, counters: counters, keypads: keypads)
        self.queue = OutboundQueue(limit: settings.queueLimit)
        if mode == .run {
            var inputs =
                buttons.map { MQTTHealth.Input(name: $0.name, source: .line($0.lineIndex)) }
                + encoders.indices.map { MQTTHealth.Input(name: encoders[$0].name, source: .input(encoders[$0].input ?? $0)) }
                + sensors.map { MQTTHealth.Input(name: $0.name, source: .line($0.lineIndex)) }
                + counters.map { MQTTHealth.Input(name: $0.name, source: .line($0.lineIndex)) }
            inputs += keypads.map { MQTTHealth.Input(name: $0.name, source: .keys($0.lineIndices)) }
            health = MQTTHealth(inputs: inputs, intervalNs: healthIntervalNs)
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

    /// The connection's next deadline (reconnect, keepalive), or a counter's waiting state's or the
    /// next health reading's or the end of the retained-topic sweep's if sooner.
    package var nextDeadlineNs: Int64? {
        guard !finished else { return nil }
        var deadlineNs = connection.nextDeadlineNs
        if let healthNs = inspectionDueNs { deadlineNs = min(deadlineNs ?? healthNs, healthNs) }
        if let sweepNs = sweep?.deadlineNs { deadlineNs = min(deadlineNs ?? sweepNs, sweepNs) }
        for throttle in counterThrottles {
            guard let dueNs = throttle.deadlineNs else { continue }
            deadlineNs = min(deadlineNs ?? dueNs, dueNs)
        }
        return deadlineNs
    }

    package var isBusy: Bool { !finished }

    package func descriptorReady(_ index: Int, events: PollEvents) {
        if index == 0 { connection.noteReady() } else { connection.noteLookupReady() }
    }

    /// The buttons' and contacts' states, the encoders' start positions and the counters' start
    /// totals go out first (retained), so Home Assistant's entities show them before the first change.
    package func start(linesPressed: [Bool?], levels: [Level], atNs nowNs: Int64) {
        guard mode == .run else { return }
        health?.begin(atNs: nowNs)
        for button in buttons {
            guard linesPressed.indices.contains(button.lineIndex), let pressed = linesPressed[button.lineIndex] else { continue }
            enqueue(OutboundMessage(topic: settings.stateTopic(button: button.name), text: pressed ? "pressed" : "released", retain: true))
        }
        for encoder in encoders {
            guard let position = encoder.startPosition else { continue }
            enqueue(positionState(encoder, position), latestOnly: true)
        }
        for sensor in sensors {
            guard linesPressed.indices.contains(sensor.lineIndex), let isOn = linesPressed[sensor.lineIndex] else { continue }
            enqueue(sensorState(sensor, isOn: isOn))
        }
        for (index, counter) in counters.enumerated() {
            counterThrottles[index].noteSent(atNs: nowNs)
            enqueue(counterState(counter, MQTTCounter.State(total: counter.startTotal)), latestOnly: true)
        }
    }

    /// Events only.
    package var consumesEdges: Bool { false }

    package func consume(_ output: PipelineOutput, nowNs: Int64) {
        guard mode == .run, !shuttingDown else { return }
        switch output {
        case .rotation(let source, let detent):
            guard let index = encoderOfInput[source.inputIndex] else { return }
            consume(detent, encoder: index)
            return
        case .positionReset(let source, let position, _):
            // A reset button's press: the retained position, as a detent leaves it (no event: Home
            // Assistant's event entity knows only the detents' types).
            guard let index = encoderOfInput[source.inputIndex] else { return }
            enqueue(positionState(encoders[index], position), latestOnly: true)
            return
        case .contact(let source, let change):
            consume(change, line: source.lineIndex)
            return
        case .count(let source, let count):
            consume(MQTTCounter.State(count), line: source.lineIndex, nowNs: nowNs)
            return
        case .rate(let source, let fall):
            consume(MQTTCounter.State(fall), line: source.lineIndex, nowNs: nowNs)
            return
        case .code(let source, let entered):
            guard let keypad = keypadOfInput[source.inputIndex] else { return }
            consume(entered, keypad: keypad)
            return
        case .event(let source, let event) where keyByLine[source.lineIndex] != nil:
            consumeKey(event, line: source.lineIndex)
            return
        case .buttonState(let source, let isPressed, _):
            let line = source.lineIndex
            // A button held since the start, let go: its state, with no event.
            if let index = buttonByLine[line] {
                enqueue(OutboundMessage(topic: settings.stateTopic(button: buttons[index].name), text: isPressed ? "pressed" : "released", retain: true))
            }
            return
        default: break
        }
        guard case .event(let source, let event) = output, let index = buttonByLine[source.lineIndex] else { return }
        let button = buttons[index]
        enqueue(OutboundMessage(topic: settings.eventTopic(button: button.name), payload: EventWriter.jsonObject(event, fields: eventFields[index]), retain: false))
        switch event.kind {
        case .press: enqueue(OutboundMessage(topic: settings.stateTopic(button: button.name), text: "pressed", retain: true))
        case .release: enqueue(OutboundMessage(topic: settings.stateTopic(button: button.name), text: "released", retain: true))
        default: break
        }
    }

    package func advance(toNs nowNs: Int64) {
        guard !finished else { return }
        if mode == .run, !shuttingDown { publishDueCounts(atNs: nowNs) }
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
        // The counters' waiting states go now: the last total is not lost.
        if mode == .run, !shuttingDown { publishDueCounts(atNs: nowNs, all: true) }
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
