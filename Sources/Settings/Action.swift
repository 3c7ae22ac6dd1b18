/// What to do when an action's command is still running as the next event for it comes.
package enum ActionPolicy: Sendable, Hashable {
    /// Run it after the running one ends (at most `ActionRunner.maximumQueued` waiting; beyond, dropped).
    case queue
    /// Ignore the new event.
    case drop
    /// Run it at once, with at most this many running together (beyond, dropped).
    case parallel(Int)
    /// Run it after the running one ends, once, with the latest event that came meanwhile (earlier
    /// ones are replaced): a fast flick of an encoder runs the command twice, not fifty times, and the
    /// second run sees the final position.
    case coalesce
}

/// A command to run on an event.
package struct Action: Sendable, Hashable {
    /// A name for logs.
    package var name: String
    /// The argument vector: no shell unless it is `["/bin/sh", "-c", ...]` (the `shell:` key).
    package var arguments: [String]
    package var policy: ActionPolicy
    /// Kill the command's process group (SIGTERM, then SIGKILL `ActionRunner.killGraceNs` later) if it
    /// runs longer, in nanoseconds of the loop's clock.
    package var timeoutNs: Int64?

    package init(name: String, arguments: [String], policy: ActionPolicy = .queue, timeoutNs: Int64? = nil) {
        self.name = name
        self.arguments = arguments
        self.policy = policy
        self.timeoutNs = timeoutNs
    }
}
