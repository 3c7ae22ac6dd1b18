import DebounceCore
import EventOutput

/// What the MQTT sink knows of one button: its name (a topic level), where it is (for the event's
/// JSON), and the gestures its configuration makes (for Home Assistant discovery).
package struct MQTTButton: Sendable, Hashable {
    /// The button's name from the configuration, used as a topic level.
    package var name: String
    /// The chip as events print it (`gpiochip0`, `simulated`).
    package var chip: String
    /// The line's offset on the chip.
    package var line: Int
    /// Its line in the run (the index of the pipeline's outputs: the roster's `LineID`).
    package var lineIndex: Int
    /// The gestures its events can be, in discovery order.
    package var gestures: [MQTTGesture]

    package init(name: String, chip: String, line: Int, lineIndex: Int, gestures: [MQTTGesture]) {
        self.name = name
        self.chip = chip
        self.line = line
        self.lineIndex = lineIndex
        self.gestures = gestures
    }

    /// A button whose gestures follow its `GestureConfiguration`: press and release always; hold and
    /// long release, repeat when configured; clicks 1 to `maxClickCount` (or to `unlimitedClicksShown` without a maximum).
    package init(name: String, chip: String, line: Int, lineIndex: Int, configuration: GestureConfiguration) {
        var gestures: [MQTTGesture] = [.press, .release]
        if configuration.holdNs != nil { gestures += [.hold, .longRelease] }
        if configuration.repeatDelayNs != nil || configuration.repeatIntervalNs != nil { gestures.append(.repeat) }
        if configuration.clickWindowNs != nil {
            let highest = configuration.maxClickCount.flatMap { $0 >= 1 ? $0 : nil } ?? Self.unlimitedClicksShown
            for count in 1...highest { gestures.append(.click(count)) }
        }
        self.init(name: name, chip: chip, line: line, lineIndex: lineIndex, gestures: gestures)
    }

    /// The fields after an event's standard ones in its JSON, the same as `run --format json` prints:
    /// e.g. `{"event":"click","time_ns":5123456789,"onset_ns":4723456789,"count":2,"button":"lights","chip":"gpiochip0","line":17}`.
    package var eventFields: EventFields { .button(name, chip: chip, line: line) }

    /// The click counts announced to Home Assistant when the configuration sets no maximum.
    package static let unlimitedClicksShown = 3
}

/// One kind of event a button reports, as Home Assistant sees it.
package enum MQTTGesture: Sendable, Hashable {
    case press, release, hold, `repeat`
    /// The release that ends a hold.
    case longRelease
    /// A click of this count (1: single, 2: double...).
    case click(Int)

    /// The gesture an event is.
    package init(_ event: ButtonEvent) {
        switch event.kind {
        case .press: self = .press
        case .release: self = .release
        case .hold: self = .hold
        case .repeat: self = .repeat
        case .click: self = .click(event.count)
        case .longRelease: self = .longRelease
        }
    }

    static let clickWords = ["", "", "double", "triple", "quadruple", "quintuple"]

    /// Its name in topics, discovery and the `event` entity's `event_type`: `press`, `release`, `hold`,
    /// `long_release`, `repeat`, `click`, `double_click`, `triple_click`, `quadruple_click`, `quintuple_click`, `click_6`...
    package var identifier: String {
        switch self {
        case .press: "press"
        case .release: "release"
        case .hold: "hold"
        case .repeat: "repeat"
        case .longRelease: "long_release"
        case .click(let count) where count == 1: "click"
        case .click(let count) where count > 1 && count < Self.clickWords.count: "\(Self.clickWords[count])_click"
        case .click(let count): "click_\(count)"
        }
    }

    /// Home Assistant's device trigger `type`: its own names where it has one (`button_short_press`,
    /// `button_short_release`, `button_long_press`, `button_long_release`, `button_double_press`...), ours where it has none
    /// (`button_repeat`, `button_single_click`, `button_6_press`).
    package var homeAssistantType: String {
        switch self {
        case .press: "button_short_press"
        case .release: "button_short_release"
        case .hold: "button_long_press"
        case .repeat: "button_repeat"
        case .longRelease: "button_long_release"
        case .click(let count) where count == 1: "button_single_click"
        case .click(let count) where count > 1 && count < Self.clickWords.count: "button_\(Self.clickWords[count])_press"
        case .click(let count): "button_\(count)_press"
        }
    }
}
