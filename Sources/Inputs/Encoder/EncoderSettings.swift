import ConfigurationFile
import DebounceCore
import Settings
import YAMLDocument

/// One rotary encoder of a configuration (`encoders:`): where its two lines are, how it counts, and
/// the keys it taps. Its push button, if any, is an ordinary entry of `buttons:`, or its reset button
/// (`reset_line:`, `reset`).
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
    /// the counters' totals (`StateStore`), and the run starts from it, clamped into the range.
    package var restore = false
    /// Its reset button (`reset_line:`, `reset_to:`), or nil: a third line whose debounced press sets
    /// the position.
    package var reset: EncoderReset?

    /// The same encoder in every setting (written out: `keys` is a tuple).
    package static func == (left: EncoderSettings, right: EncoderSettings) -> Bool {
        left.name == right.name && left.lineA == right.lineA && left.lineB == right.lineB && left.configuration == right.configuration
            && left.keys?.clockwise == right.keys?.clockwise && left.keys?.counterClockwise == right.keys?.counterClockwise && left.axis == right.axis
            && left.actions == right.actions && left.restore == right.restore && left.reset == right.reset
    }
}

/// An encoder's reset button (`reset_line:`): a push button (a KY-040's SW pin) on the encoder's chip,
/// debounced as a button with the configuration's defaults, whose press sets the position to `position`.
package struct EncoderReset: Sendable, Equatable {
    /// Its line, on the encoder's chip with the encoder's bias, and the defaults' kernel debouncing.
    package var lineSettings: LineSettings
    /// The position a press sets (`reset_to:`, 0 by default), inside the encoder's range.
    package var position: Int
    /// Its debouncing: the defaults' strategies and active level, as a button without its own.
    package var debounce: DebounceConfiguration
}

/// A command an encoder's detents run: `on: cw`, `on: ccw` or `on: rotate` (either way). Its policy is
/// `coalesce` unless the file says otherwise: a fast flick runs it twice, the second time with the
/// final position, not once per detent.
package struct EncoderActionConfiguration: Sendable, Equatable {
    package var on: EncoderTrigger
    package var action: Action
}

extension EncoderSettings: InputSettings {
    package static var kind: InputKindID { .encoder }
    /// Lines A and B, then its reset button's when it has one.
    package var watchedLines: [(role: Roster.Role, settings: LineSettings?)] {
        [(.encoderA, lineA), (.encoderB, lineB)] + (reset.map { [(.encoderReset, $0.lineSettings)] } ?? [])
    }
    package static var sectionExample: String { "`- name: volume` entries with `lines: [A, B]`" }
    package static var example: String { "`encoders: [{name: volume, lines: [17, 27]}]`" }

    /// Lines A and B as items of its `lines:`, its reset button's as `reset_line:`.
    package static func place(ofPin pin: Int, in fields: [String: YAMLNode], key: String) -> (node: YAMLNode, key: String)? {
        if pin == 2 { return fields["reset_line"].map { ($0, "\(key).reset_line") } }
        guard case .sequence(let lines)? = fields["lines"], lines.indices.contains(pin) else { return nil }
        return (lines[pin], "\(key).lines[\(pin)]")
    }
    package static var maximumEntries: Int { ConfigurationReader.maximumEncoders }

    package static func read(_ node: YAMLNode, key: String, index: Int, context: ConfigurationReader.Context) throws(ConfigurationError) -> Self {
        try context.reader.readEncoder(node, key: key, index: index, defaults: context.defaults)
    }
}

extension ServiceConfiguration {
    /// Rotary encoders (`encoders:`).
    package var encoders: [EncoderSettings] { roster.inputs(of: EncoderSettings.self).map(\.settings) }
}

extension Roster {
    /// The encoders, in order, each with its lines A and B and its reset button's (`reset_line:`), if any.
    package var encoders: [(settings: EncoderSettings, lineA: LineID, lineB: LineID, reset: LineID?)] {
        inputs(of: EncoderSettings.self).map { ($0.settings, $0.lines[0], $0.lines[1], $0.lines.count > 2 ? $0.lines[2] : nil) }
    }
}

extension InputKindID {
    /// A rotary encoder (`encoders:`).
    package static let encoder = InputKindID("encoder")
}

extension Roster.Role {
    /// An encoder's line A (clockwise, A leads).
    package static let encoderA = Roster.Role("A")
    /// An encoder's line B.
    package static let encoderB = Roster.Role("B")
    /// An encoder's reset button (`reset_line:`).
    package static let encoderReset = Roster.Role("reset")
}
