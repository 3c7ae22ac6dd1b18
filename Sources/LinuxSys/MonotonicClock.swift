#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CLinuxSys

/// `CLOCK_MONOTONIC`, the clock the kernel stamps GPIO edge events with.
///
/// Public, not package, for speed: Swift 6.3.1 inlines no `package` declaration into another module
/// (`@inlinable package` included), and reading the clock is on the path of every edge.
public enum MonotonicClock {
    /// The current time in nanoseconds (`clock_gettime(CLOCK_MONOTONIC)`).
    public static var nowNs: Int64 {
        var spec = timespec()
        // clock_gettime cannot fail for CLOCK_MONOTONIC with a valid pointer.
        _ = clock_gettime(CLOCK_MONOTONIC, &spec)
        return Int64(spec.tv_sec) * 1_000_000_000 + Int64(spec.tv_nsec)
    }

    /// Sleeps until the clock reads `deadlineNs` (`clock_nanosleep` with `TIMER_ABSTIME`, restarted
    /// after a signal): no spinning, and no drift however long the wait.
    package static func sleep(untilNs deadlineNs: Int64) {
        var spec = timespec(tv_sec: Int(deadlineNs / 1_000_000_000), tv_nsec: Int(deadlineNs % 1_000_000_000))
        while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &spec, nil) == EINTR {}
    }
}
