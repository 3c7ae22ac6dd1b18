import DebounceCore
import LineBackends
import Logging

/// The daemon's logic above the debouncers: each button's gestures, the groups that lock buttons out,
/// and the actions that run on events. Pure bookkeeping and no I/O of its own, so the same object runs
/// over real pins and over simulated buttons; `DebounceLoop` drives it (`handle`, `advance`,
/// `nextDeadlineNs`).
public final class ButtonService {
    /// An event of one button, after gestures.
    public struct Output: Sendable {
        /// Index into the configuration's buttons.
        public var button: Int
        public var event: ButtonEvent
    }

    public let configuration: ServiceConfiguration
    public let actions: ActionRunner
    private var recognizers: [GestureRecognizer]
    private var groups: [GroupLockout]
    /// For each button: its group's index, if any.
    private let groupOfButton: [Int?]
    /// For each button: (action configuration, runner index).
    private let actionsOfButton: [[(configuration: ActionConfiguration, runner: Int)]]
    private let logger: Logger
    /// Where the lines are, for the actions' environment: (chip, offset) per button.
    private let places: [(chip: String, offset: Int)]

    public init(configuration: ServiceConfiguration, places: [(chip: String, offset: Int)], logger: Logger) {
        self.configuration = configuration
        self.places = places
        self.logger = logger
        let groupNames = configuration.groups.keys.sorted()
        groups = groupNames.map { GroupLockout(windowNs: configuration.groups[$0] ?? 0) }
        groupOfButton = configuration.buttons.map { button in button.group.flatMap { groupNames.firstIndex(of: $0) } }
        recognizers = configuration.buttons.enumerated().map { GestureRecognizer(configuration: $1.gestures, groupMember: $0) }
        var all: [Action] = []
        var perButton: [[(ActionConfiguration, Int)]] = []
        for button in configuration.buttons {
            perButton.append(button.actions.map { action in
                all.append(action.action)
                return (action, all.count - 1)
            })
        }
        actionsOfButton = perButton
        actions = ActionRunner(actions: all, logger: logger)
    }

    /// The earliest gesture or action deadline, in nanoseconds.
    public var nextDeadlineNs: Int64? {
        var earliest = actions.nextDeadlineNs
        for recognizer in recognizers {
            if let deadline = recognizer.nextDeadlineNs { earliest = min(earliest ?? deadline, deadline) }
        }
        return earliest
    }

    /// A debounced press or release of button `button`: its gestures are recognized and reported.
    public func handle(_ event: ButtonEvent, button: Int, report: (Output) throws -> Void) rethrows {
        let output: GestureOutput
        if let group = groupOfButton[button] {
            output = recognizers[button].receive(event, group: &groups[group])
        } else {
            output = recognizers[button].receive(event)
        }
        for gesture in output { try emit(gesture, button: button, report: report) }
    }

    /// Time moved on to `nowNs`: due gestures are reported, timed-out commands stopped, finished ones reaped.
    public func advance(toNs nowNs: Int64, childExited: Bool, report: (Output) throws -> Void) rethrows {
        for index in recognizers.indices {
            for gesture in recognizers[index].advance(toNs: nowNs) { try emit(gesture, button: index, report: report) }
        }
        if childExited || actions.runningCount > 0 { actions.reap(nowNs: nowNs) }
        actions.enforceTimeouts(nowNs: nowNs)
    }

    private func emit(_ event: ButtonEvent, button: Int, report: (Output) throws -> Void) rethrows {
        try report(Output(button: button, event: event))
        for (action, runner) in actionsOfButton[button] where action.on == event.kind && (action.count == nil || action.count == event.count) {
            let place = places[button]
            actions.trigger(runner, environment: [
                "GPIO_EVENT": event.kind.rawValue, "GPIO_BUTTON": configuration.buttons[button].name,
                "GPIO_CHIP": place.chip, "GPIO_LINE": String(place.offset),
                "GPIO_TIME_NS": String(event.timeNs), "GPIO_ONSET_NS": String(event.onsetNs), "GPIO_COUNT": String(event.count),
            ], nowNs: event.timeNs)
        }
    }
}
