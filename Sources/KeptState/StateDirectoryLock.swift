#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import LinuxSys
import SystemPackage

/// The state directory's lock: `flock(LOCK_EX | LOCK_NB)` on `<directory>/counters.lock`, held while
/// the descriptor is open. One run holds it; a reload hands it from the run before to the next
/// (`StateStore.init(…, lock:)`), so that the next run never waits for the one before to be released,
/// and a reload that keeps no state lets it go at once (`release()`).
package struct StateDirectoryLock: Sendable {
    /// The directory locked, as given.
    package let directory: String
    /// The lock file's descriptor (`open(2)` with `O_CLOEXEC`: no action's command inherits the lock).
    private let descriptor: OwnedDescriptor

    /// How long `acquire` keeps trying a lock held elsewhere before it says `.locked`, in milliseconds:
    /// a child process that any thread of this process is starting holds a copy of the descriptor from
    /// its `fork` to its `exec` (where `O_CLOEXEC` closes it), a window of microseconds that a loaded
    /// machine can stretch to milliseconds; a lock released just before (a reload, a run that ended) must
    /// not be refused for it. Another run's lock is held for good, and is refused after this.
    package static let patienceMs = 200
    /// The pause between two tries, in milliseconds.
    private static let retryIntervalMs = 10

    /// Opens (creating, mode 0644) and locks `<directory>/counters.lock` (`open`, `flock`), trying
    /// again every 10 ms for up to `patienceMs` while it is held (`nanosleep` between tries). Throws
    /// `.locked` when another process still holds it, `.cannotLock` when it cannot be opened or locked.
    package static func acquire(directory: String) throws(KeptStateError) -> StateDirectoryLock {
        let lockPath = directory.hasSuffix("/") ? directory + StateStore.lockFileName : directory + "/" + StateStore.lockFileName
        let owned: OwnedDescriptor
        do {
            owned = try OwnedDescriptor(operation: "open") { open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC | O_NOCTTY, 0o644) }
        } catch {
            throw .cannotLock(path: lockPath, errno: error.errno)
        }
        var waitedMs = 0
        while true {
            do {
                _ = try retryingInterrupts { flock(owned.descriptor.rawValue, LOCK_EX | LOCK_NB) }
                return StateDirectoryLock(directory: directory, descriptor: owned)
            } catch {
                guard error == .wouldBlock else { throw .cannotLock(path: lockPath, errno: error) }
                guard waitedMs < patienceMs else { throw .locked(directory: directory) }
            }
            // A signal that cuts the pause short costs one early try, nothing else.
            var pause = timespec(tv_sec: 0, tv_nsec: retryIntervalMs * 1_000_000)
            _ = nanosleep(&pause, nil)
            waitedMs += retryIntervalMs
        }
    }

    /// Lets the lock go now (`close(2)` of its descriptor), whoever else still holds this value; later
    /// calls do nothing.
    package func release() {
        descriptor.close()
    }
}
