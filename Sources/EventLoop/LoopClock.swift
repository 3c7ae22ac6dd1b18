import LinuxSys

/// The one clock of a run, owned by its `EventLoop` and read by nothing else: every timestamp, deadline
/// and timeout of the run (edges, debouncer decisions, gesture times, action timeouts) is on it.
///
/// - `monotonic`: `CLOCK_MONOTONIC` itself, the clock the kernel stamps GPIO edges with (real pins).
/// - `realTime()`: `CLOCK_MONOTONIC` shifted so that the run starts at 0 (a simulated line in real
///   time: a person watches it, actions really wait).
/// - `virtual()`: starts at 0 and jumps straight to the next deadline; nothing sleeps (tests, and
///   simulations of hours that run in milliseconds).
package final class LoopClock: @unchecked Sendable {
    /// Whether time follows `CLOCK_MONOTONIC` or jumps.
    package let isVirtual: Bool
    /// `CLOCK_MONOTONIC` minus this clock, in nanoseconds (real clocks).
    private let originNs: Int64
    /// Unchecked for exclusive access: only the loop's thread reads and moves it (no dynamic check on
    /// each read of the time).
    @exclusivity(unchecked) private var virtualNowNs: Int64

    private init(isVirtual: Bool, originNs: Int64, startNs: Int64) {
        self.isVirtual = isVirtual
        self.originNs = originNs
        self.virtualNowNs = startNs
    }

    /// `CLOCK_MONOTONIC`, for real pins.
    package static var monotonic: LoopClock { LoopClock(isVirtual: false, originNs: 0, startNs: 0) }

    /// `CLOCK_MONOTONIC`, reading 0 now.
    package static func realTime() -> LoopClock { LoopClock(isVirtual: false, originNs: MonotonicClock.nowNs, startNs: 0) }

    /// Virtual time, reading `startNs` now.
    package static func virtual(startNs: Int64 = 0) -> LoopClock { LoopClock(isVirtual: true, originNs: 0, startNs: startNs) }

    /// The current time, in nanoseconds.
    package var nowNs: Int64 { isVirtual ? virtualNowNs : MonotonicClock.nowNs - originNs }

    /// Virtual time jumps to `timeNs` (never backwards). Only the loop calls this.
    func jump(toNs timeNs: Int64) {
        if isVirtual, timeNs > virtualNowNs { virtualNowNs = timeNs }
    }
}
