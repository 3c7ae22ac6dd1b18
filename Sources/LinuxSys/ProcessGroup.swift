#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CLinuxSys
import SystemPackage

/// A command started in a session and process group of its own (`posix_spawnp` with
/// `POSIX_SPAWN_SETSID`), so that it and everything it starts can be signalled together, and no
/// grandchild outlives a kill. The group's id is the child's pid. `exitDescriptor` (`pidfd_open`)
/// becomes readable when the child ends, so an event loop reaps it without SIGCHLD.
package final class ProcessGroup {
    /// The child's pid, which is also its process group's id.
    package let pid: pid_t
    /// Readable once the child has ended (`pidfd_open(2)`, Linux 5.3); `nil` on older kernels. Owned.
    package let exitDescriptor: OwnedDescriptor?
    /// Set once the child was reaped: its pid is no longer ours to wait for.
    package private(set) var exit: Exit?

    private init(pid: pid_t) {
        self.pid = pid
        self.exitDescriptor = try? OwnedDescriptor(operation: "pidfd_open") { clinuxsys_pidfd_open(pid) }
    }

    /// How a reaped child ended.
    package enum Exit: Sendable, Hashable {
        case exited(code: Int32)
        case signalled(signal: Int32)
    }

    /// Starts `arguments[0]` (looked up on `PATH`) with `arguments` and exactly `environment`
    /// (`"NAME=value"` entries), with every signal unblocked and at its default disposition, and its
    /// standard output sent to this process's standard error. Throws the `Errno` of `posix_spawnp`
    /// (e.g. `ENOENT` for a program that does not exist).
    package static func spawn(arguments: [String], environment: [String]) throws(SystemError) -> ProcessGroup {
        guard let program = arguments.first else { throw SystemError("starting an empty command", .invalidArgument) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | Int32(clinuxsys_posix_spawn_setsid)))

        var fileActions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&fileActions)
        defer { posix_spawn_file_actions_destroy(&fileActions) }
        posix_spawn_file_actions_adddup2(&fileActions, STDERR_FILENO, STDOUT_FILENO)

        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0) } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid = pid_t()
        let result = posix_spawnp(&pid, program, &fileActions, &attributes, argv, envp)
        guard result == 0 else { throw SystemError("starting '\(program)'", Errno(rawValue: result)) }
        return ProcessGroup(pid: pid)
    }

    /// Sends `signal` to every process of the group (`kill(-pgid, signal)`). A group that is gone is
    /// not an error.
    package func signal(_ signal: Int32) {
        _ = kill(-pid, signal)
    }

    /// Whether any process of the group is still alive (`kill(-pgid, 0)`); zombies count until reaped.
    package var isAlive: Bool { kill(-pid, 0) == 0 }

    /// Reaps the child if it has ended (`waitpid(pid, WNOHANG)`, or blocking when `waiting`): its exit,
    /// or `nil` while it runs. Only this child is waited for, never another of the process's children.
    @discardableResult
    package func reap(waiting: Bool = false) -> Exit? {
        if let exit { return exit }
        var status: Int32 = 0
        while true {
            let result = waitpid(pid, &status, waiting ? 0 : WNOHANG)
            if result == pid {
                let signal = status & 0x7F
                exit = signal != 0 ? .signalled(signal: signal) : .exited(code: (status >> 8) & 0xFF)
                exitDescriptor?.close()
                return exit
            }
            if result < 0, errno == EINTR { continue }
            // ECHILD: someone else reaped it; treat as ended with an unknown status.
            if result < 0, errno == ECHILD {
                exit = .exited(code: -1)
                exitDescriptor?.close()
            }
            return exit
        }
    }

    /// Whether process `pid` has ended: there is no such process, or it is a zombie waiting for its
    /// parent to reap it (`/proc/PID/stat` state `Z` or `X`). For tests and diagnostics.
    package static func hasEnded(pid: pid_t) -> Bool {
        guard let file = fopen("/proc/\(pid)/stat", "r") else { return true }
        defer { fclose(file) }
        var buffer = [CChar](repeating: 0, count: 512)
        guard fgets(&buffer, Int32(buffer.count), file) != nil else { return true }
        let stat = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard let close = stat.lastIndex(of: ")") else { return false }
        let state = stat[stat.index(after: close)...].drop { $0 == " " }.first
        return state == "Z" || state == "X"
    }

    /// Whether process `pid` ends within `timeoutNs` nanoseconds, looking every 10 ms (a killed process
    /// takes a moment to die on a busy machine). For tests and diagnostics; never call it from the loop.
    package static func hasEnded(pid: pid_t, withinNs timeoutNs: Int64) -> Bool {
        let deadlineNs = MonotonicClock.nowNs.addingReportingOverflow(timeoutNs).partialValue
        while !hasEnded(pid: pid) {
            if MonotonicClock.nowNs > deadlineNs { return false }
            MonotonicClock.sleep(untilNs: MonotonicClock.nowNs + 10_000_000)
        }
        return true
    }

    /// The environment of this process, as `"NAME=value"` entries, without the names in `replaced`.
    package static func currentEnvironment(without replaced: Set<String>) -> [String] {
        var variables: [String] = []
        var index = 0
        while let entry = environ[index] {
            let text = String(cString: entry)
            let name = text.split(separator: "=", maxSplits: 1).first.map(String.init) ?? text
            if !replaced.contains(name) { variables.append(text) }
            index += 1
        }
        return variables
    }
}
