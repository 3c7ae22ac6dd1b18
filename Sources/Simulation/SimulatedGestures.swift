import DebounceCore

/// The gestures a simulated person makes on a button whose configuration recognizes gestures
/// (`GestureConfiguration`), so that trying the configuration shows each of them: single clicks (short
/// presses), double and triple clicks inside the click window, holds past the hold time, and presses
/// long enough to repeat. Each gesture has the press lengths and pauses it needs, given the button's
/// debouncing; `BouncyButton` plays them with its usual bounce. All times are in nanoseconds; a press
/// lasts from the first edge of its burst to the first edge of its release's burst.
public struct SimulatedGestures: Sendable, Hashable {
    /// One gesture: what a person does between two longer pauses.
    package enum Gesture: Sendable, Hashable {
        /// `count` short presses, each within the click window of the one before (1: a single click,
        /// or a short press on a button without clicks).
        case clicks(Int)
        /// One press held past the hold time.
        case hold
        /// One press held long enough for 2 to 5 repeats (1 without a repeat interval).
        case `repeat`

        /// How many presses the gesture takes.
        package var presses: Int {
            if case .clicks(let count) = self { return count }
            return 1
        }
    }

    /// Every gesture the configuration recognizes, each once, in the order of a first round: a
    /// single click, the multi-clicks up to the highest count, a hold, a repeat.
    package let gestures: [Gesture]
    /// The pause before a gesture (from its release to the next gesture's first press): past the click
    /// window, so that one gesture's clicks never run into the next's.
    let pauseNs: ClosedRange<Int64>
    /// A single click's press (a short press): shorter than the hold time and the repeat delay.
    let shortPressNs: ClosedRange<Int64>
    /// Each press of a double or triple click.
    let quickPressNs: ClosedRange<Int64>
    /// Between the presses of a double or triple click, release to press: inside the click window.
    let clickGapNs: ClosedRange<Int64>
    /// A hold's press: past the hold time.
    let holdPressNs: ClosedRange<Int64>
    /// A repeating press: past the repeat delay (and the hold time, before which no repeat comes) by
    /// 1.5 to 4.5 intervals.
    let repeatPressNs: ClosedRange<Int64>

    /// The gestures of a button configured with `configuration` and debounced by `debounce`, pressed
    /// with `profile`'s bounce; `nil` when the button recognizes no gesture (no hold, repeat nor click
    /// window), which `BouncyButton` then presses as `profile` says.
    ///
    /// Clicks go up to the highest of 3 and `clickCounts` (the counts the button's actions name), but
    /// never past the configuration's `maxClickCount`.
    package init?(_ configuration: GestureConfiguration, debounce: DebounceConfiguration, clickCounts: [Int] = [], profile: BounceProfile = .typical) {
        let holdNs = configuration.holdNs.map { Swift.max($0, 0) }
        let repeatDelayNs = configuration.repeatDelayNs.map { Swift.max($0, 0) }
        let windowNs = configuration.clickWindowNs.map { Swift.max($0, 0) }
        guard holdNs != nil || repeatDelayNs != nil || windowNs != nil else { return nil }
        let ms: Int64 = 1_000_000
        // How long after a burst's first edge the debouncer has decided it: the longest of the
        // strategies' waits, plus a normal burst.
        let strategies = [debounce.press, debounce.release]
        let settleNs = strategies.map { Swift.max($0.stabilityNs, $0.lockoutNs) }.reduce(0, Swift.max) + profile.press.maximumNs + 4 * ms

        var gestures: [Gesture] = [.clicks(1)]
        if let windowNs {
            var highest = Swift.max(3, clickCounts.reduce(0, Swift.max))
            if let maximum = configuration.maxClickCount, maximum >= 1 { highest = Swift.min(highest, maximum) }
            if highest >= 2 { gestures += (2...highest).map { Gesture.clicks($0) } }
            let gapLowNs = settleNs + 30 * ms
            clickGapNs = Self.range(gapLowNs, Swift.min(windowNs / 2, windowNs - debounce.press.stabilityNs - 40 * ms))
            pauseNs = (windowNs + settleNs + profile.pauseNs.lowerBound)...(windowNs + settleNs + profile.pauseNs.upperBound)
        } else {
            clickGapNs = profile.pauseNs
            pauseNs = profile.pauseNs
        }
        // Short presses stay under half of the hold time and the repeat delay.
        let longestShortNs = [holdNs, repeatDelayNs].compactMap { $0.map { $0 / 2 } }.reduce(profile.holdNs.upperBound, Swift.min)
        shortPressNs = Self.range(Swift.max(profile.holdNs.lowerBound, settleNs + 40 * ms), longestShortNs, keepingHigh: true)
        quickPressNs = Self.range(settleNs + 40 * ms, Swift.min(settleNs + 110 * ms, longestShortNs), keepingHigh: true)
        if let holdNs {
            gestures.append(.hold)
            holdPressNs = (holdNs + settleNs + 150 * ms)...(holdNs + settleNs + 900 * ms)
        } else {
            holdPressNs = profile.holdNs
        }
        if let repeatDelayNs {
            gestures.append(.repeat)
            let firstRepeatNs = Swift.max(repeatDelayNs, holdNs ?? 0)
            if let intervalNs = configuration.repeatIntervalNs, intervalNs > 0 {
                repeatPressNs = Self.range(firstRepeatNs + Swift.max(intervalNs * 3 / 2, settleNs + 150 * ms), firstRepeatNs + intervalNs * 9 / 2)
            } else {
                repeatPressNs = (firstRepeatNs + settleNs + 150 * ms)...(firstRepeatNs + settleNs + 600 * ms)
            }
        } else {
            repeatPressNs = profile.holdNs
        }
        self.gestures = gestures
    }

    /// `low...high`; when `high` is below `low` (a hold time or a click window too short for the
    /// debouncing), `low...low`, or `high...high` with `keepingHigh` (a short press must stay short).
    private static func range(_ low: Int64, _ high: Int64, keepingHigh: Bool = false) -> ClosedRange<Int64> {
        guard high < low else { return low...high }
        return keepingHigh ? Swift.max(high, 0)...Swift.max(high, 0) : low...low
    }
}
