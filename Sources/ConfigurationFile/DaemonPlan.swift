import DebounceCore
import Pipeline
import Sinks

/// What a configuration asks the event loop to run: the pipeline's plan for each line (buttons, the
/// encoders' raw lines, contacts, counters: `ServiceConfiguration.lines`' order), the groups'
/// lockouts, and the actions with the events that start them. Pure: building it opens nothing.
public struct DaemonPlan: Sendable {
    /// One plan per button, in the configuration's order (the loop's line order).
    public var plans: [LinePlan]
    /// The groups, in the order `LinePlan.group` indexes (sorted by name).
    public var groups: [GroupLockout]
    public var actions: [Action]
    public var bindings: [ActionBinding]
    /// What each button's keys are bound to; empty when no button has keys (then no keyboard is made).
    public var keyBindings: [KeyBinding]
    /// The encoders, decoding the raw lines after the buttons' (`ServiceConfiguration.lines`' order).
    public var encoders: [EncoderPlan]
    /// The keys each encoder's detents tap.
    public var encoderKeyBindings: [EncoderKeyBinding]
    /// The actions each encoder's detents start (into `actions`).
    public var encoderActionBindings: [EncoderActionBinding] = []
    /// The actions each contact's changes start (into `actions`), by the contact's line.
    public var contactActionBindings: [ContactActionBinding] = []

    /// The plan of `configuration`, its counters starting from `counterTotals[i]` pulses (the totals a
    /// state file kept; 0 for a counter it does not list).
    public init(_ configuration: ServiceConfiguration, counterTotals: [Int64] = []) {
        let groupNames = configuration.groups.keys.sorted()
        groups = groupNames.map { GroupLockout(windowNs: configuration.groups[$0] ?? 0) }
        plans = configuration.buttons.map { button in
            LinePlan(debounce: button.debounce, gestures: button.gestures, group: button.group.flatMap { groupNames.firstIndex(of: $0) })
        }
        plans += Array(repeating: LinePlan.raw, count: 2 * configuration.encoders.count)
        plans += configuration.sensors.map { LinePlan(debounce: $0.debounce, role: .contact($0.contact)) }
        plans += configuration.counters.indices.map { index in
            LinePlan(debounce: configuration.counters[index].debounce, role: .counter(initialTotal: counterTotals.indices.contains(index) ? counterTotals[index] : 0))
        }
        encoders = configuration.encoders.enumerated().map { index, encoder in
            EncoderPlan(lineA: configuration.buttons.count + 2 * index, lineB: configuration.buttons.count + 2 * index + 1, configuration: encoder.configuration)
        }
        encoderKeyBindings = configuration.encoders.enumerated().compactMap { index, encoder in
            if let axis = encoder.axis { return EncoderKeyBinding(encoder: index, axis: axis) }
            return encoder.keys.map { EncoderKeyBinding(encoder: index, clockwise: $0.clockwise, counterClockwise: $0.counterClockwise) }
        }
        actions = []
        bindings = []
        keyBindings = []
        for (line, button) in configuration.buttons.enumerated() {
            for keys in button.keys {
                keyBindings.append(KeyBinding(line: line, on: keys.on, count: keys.count, keys: keys.keys, isHeld: keys.isHeld))
            }
            for action in button.actions {
                bindings.append(ActionBinding(line: line, on: action.on, count: action.count, action: actions.count))
                actions.append(action.action)
            }
        }
        for (index, encoder) in configuration.encoders.enumerated() {
            for action in encoder.actions {
                encoderActionBindings.append(EncoderActionBinding(encoder: index, on: action.on, action: actions.count))
                actions.append(action.action)
            }
        }
        for (index, sensor) in configuration.sensors.enumerated() {
            for action in sensor.actions {
                contactActionBindings.append(ContactActionBinding(line: configuration.firstSensorLine + index, on: action.on, action: actions.count))
                actions.append(action.action)
            }
        }
    }
}
