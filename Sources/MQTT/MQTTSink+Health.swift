import DebounceCore
import Pipeline

/// Each input's health as diagnostics (`MQTTHealth`): the loop hands the sink the stages when the
/// next reading is due (`Sink.inspect`), at the first wakeup and then at most once per interval (a
/// minute), and at once at a report request (`SIGUSR1`) and at the stop (before `offline`, so a run
/// shorter than the interval leaves its true counts); what changed goes out retained on
/// `<base>/<input>/health`, a reading still waiting in the queue replaced by the newer one. Home Assistant's entities for them: `HomeAssistantDiscovery+Health.swift`.
extension MQTTSink {
    /// When the inputs' health is next read: `nil` when removing discovery or shutting down.
    package var inspectionDueNs: Int64? {
        guard let health, !shuttingDown else { return nil }
        return health.dueNs
    }

    package func inspect(_ pipeline: ButtonPipeline, atNs nowNs: Int64) {
        guard var health, !shuttingDown else { return }
        let changes = health.changes(in: pipeline, atNs: nowNs)
        self.health = health
        for (input, inputHealth) in changes {
            enqueue(OutboundMessage(topic: settings.healthTopic(input: input.name), payload: MQTTHealth.payload(inputHealth), retain: true), latestOnly: true)
        }
    }
}
