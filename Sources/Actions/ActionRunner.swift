#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import DebounceCore
import EventLoop
import InputModel
import LinuxSys
import Logging
import Pipeline
import Settings
import SystemPackage

/// The sink that runs actions' commands, never blocking the event loop.
///
/// Each command starts in a session and process group of its own (`ProcessGroup.spawn`), with the
/// event's fields as environment variables (never interpolated into its command line) and its standard
/// output sent to standard error, so it never mixes into the event stream. Each running command's
/// pidfd is one of this sink's descriptors: when it becomes readable the loop wakes and the command is
/// reaped (only this runner's own children are waited for, and no SIGCHLD is needed). Timeouts count on the
/// loop's clock and kill the whole group: SIGTERM, then SIGKILL after `killGraceNs`.
///
/// Shutting down: no new event is taken; running and queued commands get the loop's grace period, and
/// whatever still runs at its end, and any process a finished command left behind in its group, is
/// killed (SIGKILL to the group) and reaped; queued runs not started by then are dropped (and logged).
/// No orphan, no hang.
package final class ActionRunner: Sink {
    /// Queued runs per action beyond which new events are dropped (and logged).
    package static let maximumQueued = 16
    /// How long a timed-out command's group gets between SIGTERM and SIGKILL, in nanoseconds.
    package static let killGraceNs: Int64 = 2_000_000_000

    private struct Running {
        var group: ProcessGroup
        var action: Int
        var startedNs: Int64
        /// The next timeout step: SIGTERM at the timeout, then SIGKILL.
        var deadlineNs: Int64?
        var terminated = false
    }

    private let actions: [Action]
    /// The bindings of each input, with what its outputs are (`InputPresenter.actionOccasion(for:)`)
    /// and give its commands.
    private let inputs: BoundInputs<InputActionBinding>
    private let logger: Logger
    /// Running commands, in start order.
    private var running: [Running] = []
    /// A running command's pidfd was ready: reap at the next `advance`.
    private var reapDue = false
    private var queued: [[[String]]]
    /// Groups whose leader was reaped but that still had members (a command's background processes).
    private var lingering: [ProcessGroup] = []
    private var shuttingDown = false

    /// A runner for `actions`, started as `bindings` say by the outputs of `inputs` (each bound input's
    /// presenter says what its outputs are and what their commands get in their environment).
    package init(actions: [Action], bindings: [InputActionBinding], inputs: [any InputPresenter], logger: Logger) {
        self.actions = actions
        self.inputs = BoundInputs(bindings.filter { actions.indices.contains($0.action) }, input: \.input, inputs: inputs)
        self.logger = logger
        self.queued = Array(repeating: [], count: actions.count)
    }

    /// How many commands are running now.
    package var runningCount: Int { running.count }

    /// The pids of the commands running now.
    package var runningPids: [Int32] { running.map(\.group.pid) }

    package var isBusy: Bool { !running.isEmpty || queued.contains { !$0.isEmpty } }

    /// The earliest timeout step, on the loop's clock. Without pidfds (Linux before 5.3), also a check
    /// for finished commands every 100 ms while any runs.
    package var nextDeadlineNs: Int64? {
        var earliest = running.compactMap(\.deadlineNs).min()
        if running.contains(where: { $0.group.exitDescriptor == nil }), let last = lastAdvanceNs {
            earliest = min(earliest ?? .max, last.adding(durationNs: 100_000_000))
        }
        return earliest
    }

    /// The running commands' pidfds, in `running` order.
    package var descriptors: [FileDescriptor] { running.compactMap { $0.group.exitDescriptor?.descriptor } }

    package func descriptorReady(_ index: Int, events: PollEvents) {
        reapDue = true
    }

    private var lastAdvanceNs: Int64?

    /// Events only.
    package var consumesEdges: Bool { false }
    /// An action starts in `consume`.
    package var writesOutputsAtOnce: Bool { true }

    /// A code entered on an input (a keypad's): each action it starts, the code in their environment
    /// as the input says (the one place it goes).
    package func consume(code: EnteredCode, of source: OutputSource, nowNs: Int64) {
        guard !shuttingDown, let (input, bindings) = inputs.bound(source), let occasion = input.actionOccasion(for: code) else { return }
        let matching = bindings.filter { occasion.answers($0.on, count: $0.count, boundLine: $0.line, line: source.lineIndex) }
        guard !matching.isEmpty else { return }
        let environment = input.actionEnvironment(for: code)
        for binding in matching { trigger(binding.action, environment: environment, nowNs: nowNs) }
    }

    package func consume(_ output: PipelineOutput, nowNs: Int64) {
        guard !shuttingDown, let source = output.source, let (input, bindings) = inputs.bound(source), let occasion = input.actionOccasion(for: output) else {
            return
        }
        let matching = bindings.filter { occasion.answers($0.on, count: $0.count, boundLine: $0.line, line: source.lineIndex) }
        guard !matching.isEmpty else { return }
        let environment = input.actionEnvironment(for: output)
        for binding in matching { trigger(binding.action, environment: environment, nowNs: nowNs) }
    }

    package func advance(toNs nowNs: Int64) {
        lastAdvanceNs = nowNs
        if reapDue || running.contains(where: { $0.group.exitDescriptor == nil }) {
            reapDue = false
            reap(nowNs: nowNs)
        }
        enforceTimeouts(nowNs: nowNs)
    }

    package func beginShutdown(atNs nowNs: Int64, graceEndNs: Int64) {
        shuttingDown = true
        let waiting = queued.reduce(0) { $0 + $1.count }
        if !running.isEmpty || waiting > 0 {
            let grace = graceEndNs == .max ? "as long as they take" : "up to \(DurationSyntax.approximate(graceEndNs - nowNs))"
            logger.notice("shutting down: waiting \(grace) for \(running.count) running and \(waiting) queued actions")
        }
    }

    /// Kills every group still alive (SIGKILL) and reaps the children.
    package func finish(atNs nowNs: Int64) {
        reap(nowNs: nowNs)
        let dropped = queued.reduce(0) { $0 + $1.count }
        if dropped > 0 { logger.warning("\(dropped) queued action runs dropped at exit") }
        for index in queued.indices { queued[index].removeAll() }
        for entry in running {
            logger.warning("action \(actions[entry.action].name) (pid \(entry.group.pid)) still running at exit: killing its process group")
            entry.group.signal(SIGKILL)
        }
        for group in lingering where group.isAlive { group.signal(SIGKILL) }
        lingering.removeAll()
        for entry in running { entry.group.reap(waiting: true) }
        running.removeAll()
    }

    /// Starts action `index`, or queues or drops it by the action's policy. Never blocks.
    private func trigger(_ index: Int, environment: [String], nowNs: Int64) {
        let action = actions[index]
        let active = running.filter { $0.action == index }.count
        switch action.policy {
        case .drop where active > 0:
            logger.info("action \(action.name): still running, event dropped (policy drop)")
        case .queue where active > 0:
            if queued[index].count >= Self.maximumQueued {
                logger.warning("action \(action.name): \(Self.maximumQueued) runs already queued, event dropped")
            } else {
                queued[index].append(environment)
            }
        case .coalesce where active > 0:
            queued[index] = [environment]
        case .parallel(let limit) where active >= limit:
            logger.info("action \(action.name): \(limit) already running, event dropped (policy parallel)")
        default:
            start(index, environment: environment, nowNs: nowNs)
        }
    }

    private func start(_ index: Int, environment: [String], nowNs: Int64) {
        let action = actions[index]
        let replaced = Set(environment.compactMap { $0.split(separator: "=", maxSplits: 1).first.map(String.init) })
        do {
            let group = try ProcessGroup.spawn(
                arguments: action.arguments, environment: ProcessGroup.currentEnvironment(without: replaced) + environment)
            running.append(Running(group: group, action: index, startedNs: nowNs, deadlineNs: action.timeoutNs.map { nowNs.adding(durationNs: $0) }))
            logger.debug("action \(action.name) started (pid \(group.pid))")
        } catch {
            logger.error("action \(action.name): cannot run '\(action.arguments.first ?? "")': \(error.errno.description)")
        }
    }

    /// Reaps every finished command, logs how it ended, and starts queued runs.
    private func reap(nowNs: Int64) {
        var finished: [Running] = []
        running.removeAll { entry in
            guard entry.group.reap() != nil else { return false }
            finished.append(entry)
            return true
        }
        lingering.removeAll { !$0.isAlive }
        for entry in finished {
            let group = entry.group
            guard let exit = group.exit else { continue }
            let action = actions[entry.action]
            let seconds = DurationSyntax.approximate(nowNs - entry.startedNs)
            switch exit {
            case .signalled(let signal):
                logger.warning("action \(action.name) (pid \(group.pid)) killed by signal \(signal) after \(seconds)\(entry.terminated ? " (timeout)" : "")")
            case .exited(let code) where code != 0:
                logger.warning("action \(action.name) (pid \(group.pid)) exited with status \(code) after \(seconds)")
            case .exited:
                logger.info("action \(action.name) (pid \(group.pid)) succeeded in \(seconds)")
            }
            if group.isAlive {
                if entry.terminated {
                    group.signal(SIGKILL)  // a timed-out command's group goes with it
                } else {
                    lingering.append(group)
                }
            }
            if !queued[entry.action].isEmpty {
                start(entry.action, environment: queued[entry.action].removeFirst(), nowNs: nowNs)
            }
        }
    }

    /// Terminates commands past their timeout: SIGTERM to the group, then SIGKILL after the grace period.
    private func enforceTimeouts(nowNs: Int64) {
        for index in running.indices {
            guard let deadlineNs = running[index].deadlineNs, deadlineNs <= nowNs else { continue }
            let group = running[index].group
            if running[index].terminated {
                group.signal(SIGKILL)
                running[index].deadlineNs = nil
            } else {
                logger.warning("action \(actions[running[index].action].name) (pid \(group.pid)) timed out: terminating its process group")
                group.signal(SIGTERM)
                running[index].terminated = true
                running[index].deadlineNs = nowNs.adding(durationNs: Self.killGraceNs)
            }
        }
    }
}
