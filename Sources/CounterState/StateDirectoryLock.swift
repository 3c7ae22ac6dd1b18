#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import LinuxSys
import SystemPackage

/// The state directory's lock: `flock(LOCK_EX | LOCK_NB)` on `<directory>/counters.lock`, held while
/// the descriptor is open. One run holds it; a reload hands it from the run before to the next
/// (`CounterStore.init(…, lock:)`), so that the next run never waits for the one before to be released,
/// and a reload that keeps no state lets it go at once (`release()`).
package struct StateDirectoryLock: Sendable {
    /// The directory locked, as given.
    package let directory: String
    /// The lock file's descriptor (`open(2)` with `O_CLOEXEC`: no action's command inherits the lock).
    private let descriptor: OwnedDescriptor

    /// Opens (creating, mode 0644) and locks `<directory>/counters.lock` (`open`, `flock`). Throws
    /// `.locked` when another process holds it, `.cannotLock` when it cannot be opened or locked.
    package static func acquire(directory: String) throws(CounterStateError) -> StateDirectoryLock {
        let lockPath = directory.hasSuffix("/") ? directory + CounterStore.lockFileName : directory + "/" + CounterStore.lockFileName
        let owned: OwnedDescriptor
        do {
            owned = try OwnedDescriptor(operation: "open") { open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC | O_NOCTTY, 0o644) }
        } catch {
            throw .cannotLock(path: lockPath, errno: error.errno)
        }
        do {
            _ = try retryingInterrupts { flock(owned.descriptor.rawValue, LOCK_EX | LOCK_NB) }
        } catch {
            if error == .wouldBlock { throw .locked(directory: directory) }
            throw .cannotLock(path: lockPath, errno: error)
        }
        return StateDirectoryLock(directory: directory, descriptor: owned)
    }

    /// Lets the lock go now (`close(2)` of its descriptor), whoever else still holds this value; later
    /// calls do nothing.
    package func release() {
        descriptor.close()
    }
}
