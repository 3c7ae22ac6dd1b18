import ConfigurationFile
import DebounceCore
import Settings
import YAMLDocument

/// `encoders:`, the rotary encoders of a configuration:
///
/// ```yaml
/// encoders:
///   - name: volume
///     lines: [GPIO17, GPIO27]       # A, B: clockwise, A leads
///     steps_per_detent: 4           # 4 (KY-040, EC11), 2 or 1
///     settle: 5ms                   # with 1: how long a reversal's first step must hold to count
///     reverse: false
///     min: 0                        # optional range; wrap: true goes round
///     max: 100
///     acceleration: {threshold: 10/s, factor: 4}
///     keys: {cw: KEY_VOLUMEUP, ccw: KEY_VOLUMEDOWN}
///     restore: true                 # the position goes on after a restart (the state directory)
///     reset_line: GPIO22            # a push button (a KY-040's SW) whose press sets the position
///     reset_to: 50                  # to this (0 by default), clamped into min/max
/// ```
extension ConfigurationReader {
    /// The most encoders: their two lines each count against the 64 lines of one request.
    static let maximumEncoders = 32
    /// The relative axes an encoder may move, as in linux/input-event-codes.h: a mouse wheel (up
    /// clockwise), a horizontal wheel, a dial.
    static let relativeAxes: [(name: String, code: UInt16)] = [("REL_WHEEL", 8), ("REL_HWHEEL", 6), ("REL_DIAL", 7)]

    func readEncoder(_ node: YAMLNode, key: String, index: Int, defaults: Defaults) throws(ConfigurationError) -> EncoderSettings {
        let fields = try reader.mapping(node, key: key, allowed: ConfigurationLoader.encoderKeys)
        let name = try inputName(fields, key: key, noun: "encoder", index: index)
        guard let linesNode = fields["lines"], case .sequence(let lines) = linesNode, lines.count == 2 else {
            throw reader.error(fields["lines"] ?? node, "\(key).lines", "an encoder needs `lines: [A, B]`: its two lines (offsets like 17 or names like GPIO17), A first (clockwise, A leads)")
        }
        let lineA = try reader.line(lines[0], key: "\(key).lines[0]")
        let lineB = try reader.line(lines[1], key: "\(key).lines[1]")
        guard lineA != lineB else { throw reader.error(lines[1], "\(key).lines[1]", "A and B must be two different lines") }
        // One chip and bias for both lines; no kernel debouncing (the decoder takes every change itself).
        let settingsA = try lineSettings(line: lineA, fields: fields, key: key, defaults: defaults, withKernelDebounce: false)
        var settingsB = settingsA
        settingsB.line = lineB

        var configuration = EncoderConfiguration()
        if let node = fields["steps_per_detent"] {
            let steps = try reader.choice(node, key: "\(key).steps_per_detent", allowed: ["4", "2", "1"])
            configuration.stepsPerDetent = EncoderConfiguration.StepsPerDetent(rawValue: Int(steps) ?? 4) ?? .four
        }
        if let node = fields["settle"] {
            guard configuration.stepsPerDetent == .one else {
                throw reader.error(node, "\(key).settle", "applies only with `steps_per_detent: 1` (with 2 or 4 a reversal needs no settle time): remove it, or set `steps_per_detent: 1`")
            }
            configuration.settleNs = try reader.duration(
                node, key: "\(key).settle", what: "the settle time (how long the lines must hold still after a reversal's first step before it counts; longer than the contacts' bounce)")
        }
        if let node = fields["reverse"] {
            configuration.reverse = try reader.choice(node, key: "\(key).reverse", allowed: ["true", "false"]) == "true"
        }
        let limit = ConfigurationLoader.maximumEncoderPosition
        let minimum = try fields["min"].map { node throws(ConfigurationError) in try reader.integer(node, key: "\(key).min", range: -limit...limit) }
        let maximum = try fields["max"].map { node throws(ConfigurationError) in try reader.integer(node, key: "\(key).max", range: -limit...limit) }
        if minimum != nil || maximum != nil {
            let low = minimum ?? Int.min, high = maximum ?? Int.max
            guard low < high else { throw reader.error(fields["max"] ?? node, "\(key).max", "must be more than `min:` (\(low))") }
            configuration.range = low...high
        }
        if let node = fields["wrap"] {
            configuration.wraps = try reader.choice(node, key: "\(key).wrap", allowed: ["true", "false"]) == "true"
            guard !configuration.wraps || (minimum != nil && maximum != nil) else {
                throw reader.error(node, "\(key).wrap", "`wrap: true` goes round from `max:` to `min:`: give both")
            }
        }
        if let node = fields["acceleration"] {
            configuration.acceleration = try acceleration(node, key: "\(key).acceleration")
        }
        var keys: (clockwise: [UInt16], counterClockwise: [UInt16])?
        if let node = fields["keys"] {
            let keyFields = try reader.mapping(node, key: "\(key).keys", allowed: ["cw", "ccw"])
            guard let cw = keyFields["cw"], let ccw = keyFields["ccw"] else {
                throw reader.error(node, "\(key).keys", "needs both `cw:` and `ccw:`, e.g. `keys: {cw: KEY_VOLUMEUP, ccw: KEY_VOLUMEDOWN}`")
            }
            keys = (try self.keys(cw, key: "\(key).keys.cw"), try self.keys(ccw, key: "\(key).keys.ccw"))
        }
        var axis: UInt16?
        if let node = fields["axis"] {
            guard keys == nil else { throw reader.error(node, "\(key).axis", "give either `keys:` (a key tap per detent) or `axis:` (a wheel step per detent), not both") }
            let name = try reader.choice(node, key: "\(key).axis", allowed: Self.relativeAxes.map(\.name))
            axis = Self.relativeAxes.first { $0.name == name }?.code
        }
        // Coalesced unless the file says otherwise: a fast flick runs a command twice, not once per detent.
        var actions: [EncoderActionConfiguration] = []
        if let node = fields["actions"] {
            let triggered: [(on: EncoderTrigger, action: Action)] = try triggeredActions(
                node, key: "\(key).actions", owner: name, what: "an encoder's", defaultPolicy: .coalesce)
            actions = triggered.map { EncoderActionConfiguration(on: $0.on, action: $0.action) }
        }
        let restore = try fields["restore"].map { node throws(ConfigurationError) in
            try reader.choice(node, key: "\(key).restore", allowed: ["true", "false"]) == "true"
        }
        var settings = EncoderSettings(
            name: name, lineA: settingsA, lineB: settingsB, configuration: configuration, keys: keys, axis: axis, actions: actions, restore: restore ?? false)
        settings.reset = try reset(fields, key: key, lineA: lineA, lineB: lineB, configuration: configuration, defaults: defaults)
        return settings
    }

    /// `reset_line:` and `reset_to:`: the encoder's reset button, on the encoder's chip with its bias,
    /// debounced as a button with the defaults (`defaults:`' debounce and active level), or nil.
    private func reset(
        _ fields: [String: YAMLNode], key: String, lineA: String, lineB: String, configuration: EncoderConfiguration, defaults: Defaults
    ) throws(ConfigurationError) -> EncoderReset? {
        guard let lineNode = fields["reset_line"] else {
            if let node = fields["reset_to"] {
                throw reader.error(node, "\(key).reset_to", "is the position a reset button sets: give its line too (`reset_line: GPIO22`), or remove it")
            }
            return nil
        }
        let line = try reader.line(lineNode, key: "\(key).reset_line")
        guard line != lineA, line != lineB else {
            throw reader.error(lineNode, "\(key).reset_line", "is the encoder's line \(line == lineA ? "A" : "B") (`lines:`): the reset button needs a line of its own (a KY-040's SW pin)")
        }
        let limit = ConfigurationLoader.maximumEncoderPosition
        let position = try fields["reset_to"].map { node throws(ConfigurationError) in try reader.integer(node, key: "\(key).reset_to", range: -limit...limit) } ?? 0
        let active = defaults.active ?? "low"
        let debounce = DebounceConfiguration(
            press: defaults.press ?? defaults.debounce ?? DebounceConfiguration.defaultStrategy,
            release: defaults.release ?? defaults.debounce ?? DebounceConfiguration.defaultStrategy,
            activeLevel: active == "low" ? .activeLow : .activeHigh)
        return EncoderReset(
            lineSettings: try lineSettings(line: line, fields: fields, key: key, defaults: defaults), position: configuration.clamped(position), debounce: debounce)
    }

    /// `acceleration: {threshold: 10/s, factor: 4}`: from 10 detents per second, each counts 4.
    private func acceleration(_ node: YAMLNode, key: String) throws(ConfigurationError) -> EncoderConfiguration.Acceleration {
        let fields = try reader.mapping(node, key: key, allowed: ["threshold", "factor"])
        guard let thresholdNode = fields["threshold"], let factorNode = fields["factor"] else {
            throw reader.error(node, key, "needs `threshold:` (detents per second, e.g. 10/s) and `factor:` (what each faster detent counts, 2 to 100)")
        }
        var text = try reader.string(thresholdNode, key: "\(key).threshold")
        if text.hasSuffix("/s") { text.removeLast(2) }
        guard let threshold = Double(text), threshold.isFinite, threshold > 0, threshold <= 10_000 else {
            throw reader.error(thresholdNode, "\(key).threshold", "a speed in detents per second, more than 0 and at most 10000, e.g. 10/s")
        }
        let factor = try reader.integer(factorNode, key: "\(key).factor", range: 2...100)
        return EncoderConfiguration.Acceleration(thresholdPerSecond: threshold, factor: factor)
    }
}

extension ConfigurationLoader {
    /// The largest `min:` or `max:` of an encoder's position, either sign.
    package static let maximumEncoderPosition = 1_000_000_000
    /// The keys of an `encoders:` entry.
    package static let encoderKeys = [
        "name", "lines", "chip", "bias", "steps_per_detent", "settle", "reverse", "min", "max", "wrap", "acceleration", "keys", "axis", "actions", "restore",
        "reset_line", "reset_to",
    ]
}
