#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CLinuxSys

/// The processors this process runs on, and handing the current one to another thread.
///
/// Public, not package, for speed: Swift 6.3.1 inlines no `package` declaration into another module
/// (`@inlinable package` included), and the loop calls `yield()` after every event on one processor.
public enum Processor {
    /// How many CPUs this process may run on: the CPUs of its affinity mask (`sched_getaffinity`, so
    /// `taskset` and systemd's `CPUAffinity=` count), or the online ones (`sysconf(_SC_NPROCESSORS_ONLN)`)
    /// where the mask cannot be read. At least 1.
    package static var allowedCount: Int {
        let count = Int(clinuxsys_allowed_cpu_count())
        return count > 0 ? count : max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))
    }

    /// Lets another runnable thread have this CPU now, if one is waiting (`sched_yield`); returns at
    /// once when none is. It cannot fail on Linux.
    @inline(__always)
    public static func yield() {
        _ = sched_yield()
    }
}
