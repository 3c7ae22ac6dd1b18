import DebounceCore
import Settings

/// One rotary encoder of a configuration (`encoders:`): where its two lines are, how it counts, and
/// the keys it taps. Its push button, if any, is an ordinary entry of `buttons:`.
package struct EncoderSettings: Sendable, Equatable {
    package var name: String
    /// Lines A and B (clockwise, A leads), on one chip with one bias and no kernel debouncing (the
    /// decoder takes every change itself).
    package var lineA: LineSettings
    package var lineB: LineSettings
    /// Steps per detent, direction, range, acceleration.
    package var configuration: EncoderConfiguration
    /// The keys a detent taps (`keys: {cw: KEY_VOLUMEUP, ccw: KEY_VOLUMEDOWN}`), or nil.
    package var keys: (clockwise: [UInt16], counterClockwise: [UInt16])?
    /// The relative axis a detent moves on the virtual keyboard (`axis: REL_WHEEL`): its code, or nil.
    package var axis: UInt16?

    /// The name of relative axis `code` as a configuration writes it (`REL_WHEEL`).
    package static func axisName(_ code: UInt16) -> String {
        ConfigurationReader.relativeAxes.first { $0.code == code }?.name ?? "axis \(code)"
    }
    /// Commands its detents run (`actions:` with `on: cw`, `ccw` or `rotate`).
    package var actions: [EncoderActionConfiguration] = []
    /// Whether its position is kept across restarts (`restore: true`): in the state directory, beside
    /// the counters' totals (`CounterStore`), and the run starts from it, clamped into the range.
    package var restore = false

    /// The same encoder in every setting (written out: `keys` is a tuple).
    package static func == (left: EncoderSettings, right: EncoderSettings) -> Bool {
        left.name == right.name && left.lineA == right.lineA && left.lineB == right.lineB && left.configuration == right.configuration
            && left.keys?.clockwise == right.keys?.clockwise && left.keys?.counterClockwise == right.keys?.counterClockwise && left.axis == right.axis
            && left.actions == right.actions && left.restore == right.restore
    }
}

/// A command an encoder's detents run: `on: cw`, `on: ccw` or `on: rotate` (either way). Its policy is
/// `coalesce` unless the file says otherwise: a fast flick runs it twice, the second time with the
/// final position, not once per detent.
package struct EncoderActionConfiguration: Sendable, Equatable {
    package var on: EncoderTrigger
    package var action: Action
}
