#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Logging

/// What to do when an action's command is still running as the next event for it comes.
public enum ActionPolicy: Sendable, Hashable {
    /// Run it after the running one ends (at most `ActionRunner.maximumQueued` waiting; beyond, dropped).
    case queue
    /// Ignore the new event.
    case drop
    /// Run it at once, with at most this many running together (beyond, dropped).
    case parallel(Int)
}

/// A command to run on an event.
public struct Action: Sendable, Hashable {
    /// A name for logs.
    public var name: String
    /// The argument vector: no shell unless it is `["/bin/sh", "-c", ...]` (the `shell:` key).
    public var arguments: [String]
    public var policy: ActionPolicy
    /// Kill the command (SIGTERM, then SIGKILL 2 s later) if it runs longer, in nanoseconds.
    public var timeoutNs: Int64?

    public init(name: String, arguments: [String], policy: ActionPolicy = .queue, timeoutNs: Int64? = nil) {
        self.name = name
        self.arguments = arguments
        self.policy = policy
        self.timeoutNs = timeoutNs
    }
}

/// Runs actions' commands without ever blocking the event loop: `posix_spawnp` to start them
/// (signal mask and dispositions reset for the child), `waitpid(WNOHANG)` to reap them when SIGCHLD
/// arrives, deadlines for timeouts. Event fields reach the command as environment variables, never
/// interpolated into its command line. A command's standard output goes to standard error, so it never
/// mixes into the event stream. Exit statuses are logged.
///
/// Written over the system calls rather than with swift-subprocess, because that library is async
/// and owns its own waiting, while this daemon is one synchronous `ppoll` loop that must not block.
public final class ActionRunner {
    /// Queued runs per action beyond which new events are dropped (and logged).
    public static let maximumQueued = 16
    /// How long a timed-out command gets between SIGTERM and SIGKILL, in nanoseconds.
    public static let killGraceNs: Int64 = 2_000_000_000

    private struct Running {
        var action: Int
        var startedNs: Int64
        var deadlineNs: Int64?
        var terminated = false
    }

    private let actions: [Action]
    private let logger: Logger
    private var running: [pid_t: Running] = [:]
    private var queued: [[[String: String]]]

    public init(actions: [Action], logger: Logger) {
        self.actions = actions
        self.logger = logger
        self.queued = Array(repeating: [], count: actions.count)
    }

    /// How many commands are running now.
    public var runningCount: Int { running.count }

    /// The earliest timeout (or kill grace) to act on, in nanoseconds of `CLOCK_MONOTONIC`.
    public var nextDeadlineNs: Int64? { running.values.compactMap(\.deadlineNs).min() }

    /// Starts action `index` for an event, or queues or drops it by the action's policy. Never blocks.
    public func trigger(_ index: Int, environment: [String: String], nowNs: Int64) {
        let action = actions[index]
        let active = running.values.filter { $0.action == index }.count
        switch action.policy {
        case .drop where active > 0:
            logger.info("action \(action.name): still running, event dropped (policy drop)")
        case .queue where active > 0:
            if queued[index].count >= Self.maximumQueued {
                logger.warning("action \(action.name): \(Self.maximumQueued) runs already queued, event dropped")
            } else {
                queued[index].append(environment)
            }
        case .parallel(let limit) where active >= limit:
            logger.info("action \(action.name): \(limit) already running, event dropped (policy parallel)")
        default:
            start(index, environment: environment, nowNs: nowNs)
        }
    }

    /// Reaps every finished command (call when SIGCHLD arrived), logs how it ended, and starts queued runs.
    /// Only this runner's own children are waited for (`waitpid` by pid), so other children of the
    /// process (a pipeline's other end, another library's processes) are left to their owners.
    public func reap(nowNs: Int64) {
        for pid in Array(running.keys) {
            var status: Int32 = 0
            guard waitpid(pid, &status, WNOHANG) == pid, let finished = running.removeValue(forKey: pid) else { continue }
            let action = actions[finished.action]
            let seconds = Double(nowNs - finished.startedNs) / 1e9
            let exitCode = (status >> 8) & 0xFF, signal = status & 0x7F
            if signal != 0 {
                logger.warning("action \(action.name) (pid \(pid)) killed by signal \(signal) after \(seconds) s\(finished.terminated ? " (timeout)" : "")")
            } else if exitCode != 0 {
                logger.warning("action \(action.name) (pid \(pid)) exited with status \(exitCode) after \(seconds) s")
            } else {
                logger.info("action \(action.name) (pid \(pid)) succeeded in \(seconds) s")
            }
            if !queued[finished.action].isEmpty {
                start(finished.action, environment: queued[finished.action].removeFirst(), nowNs: nowNs)
            }
        }
    }

    /// Terminates commands past their timeout: SIGTERM, then SIGKILL after the grace period.
    public func enforceTimeouts(nowNs: Int64) {
        for (pid, entry) in running {
            guard let deadlineNs = entry.deadlineNs, deadlineNs <= nowNs else { continue }
            if entry.terminated {
                kill(pid, SIGKILL)
                running[pid]?.deadlineNs = nil
            } else {
                logger.warning("action \(actions[entry.action].name) (pid \(pid)) timed out: terminating it")
                kill(pid, SIGTERM)
                running[pid]?.terminated = true
                running[pid]?.deadlineNs = nowNs + Self.killGraceNs
            }
        }
    }

    private func start(_ index: Int, environment: [String: String], nowNs: Int64) {
        let action = actions[index]
        guard let program = action.arguments.first else { return }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        var variables: [String] = []
        var entryIndex = 0
        while let entry = environ[entryIndex] {
            let text = String(cString: entry)
            if !environment.keys.contains(where: { text.hasPrefix($0 + "=") }) { variables.append(text) }
            entryIndex += 1
        }
        variables += environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }

        let argv = action.arguments.map { strdup($0) } + [nil]
        let envp = variables.map { strdup($0) } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        // The command's standard output goes to standard error (the log), never into the event stream
        // on standard output, which may be piped into a broker.
        var fileActions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&fileActions)
        defer { posix_spawn_file_actions_destroy(&fileActions) }
        posix_spawn_file_actions_adddup2(&fileActions, STDERR_FILENO, STDOUT_FILENO)
        var pid = pid_t()
        let result = posix_spawnp(&pid, program, &fileActions, &attributes, argv, envp)
        guard result == 0 else {
            logger.error("action \(action.name): cannot run '\(program)': \(String(cString: strerror(result)))")
            return
        }
        running[pid] = Running(action: index, startedNs: nowNs, deadlineNs: action.timeoutNs.map { nowNs + $0 })
        logger.debug("action \(action.name) started (pid \(pid))")
    }
}
