import DebounceCore

/// One kind of event a button reports, as Home Assistant sees it.
package enum ButtonGesture: Sendable, Hashable {
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

    /// The gestures a button of `configuration` makes: press and release always; hold and long
    /// release, repeat when configured; clicks 1 to `maxClickCount` (or to `unlimitedClicksShown`
    /// without a maximum).
    package static func made(by configuration: GestureConfiguration) -> [ButtonGesture] {
        var gestures: [ButtonGesture] = [.press, .release]
        if configuration.holdNs != nil { gestures += [.hold, .longRelease] }
        if configuration.repeatDelayNs != nil || configuration.repeatIntervalNs != nil { gestures.append(.repeat) }
        if configuration.clickWindowNs != nil {
            let highest = configuration.maxClickCount.flatMap { $0 >= 1 ? $0 : nil } ?? unlimitedClicksShown
            for count in 1...highest { gestures.append(.click(count)) }
        }
        return gestures
    }

    /// The click counts announced when the configuration sets no maximum.
    package static let unlimitedClicksShown = 3

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

    /// Jinja that names the gesture of a button's event JSON (`identifier`): `press`, `double_click`, `click_6`...
    package static let template =
        "{% set n = ['click', 'double_click', 'triple_click', 'quadruple_click', 'quintuple_click'] %}"
        + "{% if value_json.event != 'click' %}{{ value_json.event }}"
        + "{% elif value_json.count <= 5 %}{{ n[value_json.count - 1] }}"
        + "{% else %}click_{{ value_json.count }}{% endif %}"
}
