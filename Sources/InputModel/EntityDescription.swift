/// One thing an input shows: a state (on or off, a number) or a stream of events, with what a home
/// automation system needs to present it. Its values travel on one of the input's channels (`channel`:
/// `state`, `event`, `position`), as `InputUpdate`s.
package struct EntityDescription: Sendable, Hashable {
    /// What the entity's values are.
    package enum Value: Sendable, Hashable {
        /// On or off, sent as the words `on` and `off` (or others: `pressed` and `released`).
        case binary(on: String, off: String)
        /// A number: a channel's whole payload, or one `field` of its JSON object; with `attributes`
        /// the object's other fields are shown beside it.
        case number(stateClass: StateClass, unit: String?, field: String?, attributes: Bool)
        /// One of `options`, sent as that word (a selector's position: `off`, `auto`): the channel's
        /// whole payload is always one of them.
        case choice(options: [String])
        /// Events, each of one of `types`. `template` is the Jinja that turns an event's JSON into
        /// `{"event_type": …}` and its attributes for a consumer that reads JSON through templates
        /// (Home Assistant's MQTT); nil: the payload names its `event_type` itself. `typeTemplate`, the
        /// Jinja of the type alone, for the types that are also device triggers.
        case events(types: [EventType], template: String?, typeTemplate: String?)
    }

    /// How a number's history is read.
    package enum StateClass: String, Sendable, Hashable {
        /// A value now (a position, a power).
        case measurement
        /// A total that only grows, back to 0 at a reset (a meter's energy).
        case totalIncreasing = "total_increasing"
    }

    /// Unique within its input, and stable across runs: `state`, `event`, `position`, `total`, `rate`.
    package var key: String
    /// Added to the input's name in the entity's name (`pressed`, `position`, `power`); nil: the input's name alone.
    package var label: String?
    /// Added (after `_`) to the input's name in the entity's object id where two entities of one
    /// input are of one type (a meter's `rate` beside its total); nil: the input's name.
    package var objectSuffix: String?
    /// The input's channel its values travel on.
    package var channel: String
    package var value: Value
    /// Home Assistant's device class (`door`, `energy`, `power`), or nil.
    package var deviceClass: String?
    /// A Material Design icon (`mdi:knob`), or nil for the device class's own.
    package var icon: String?
    /// How many decimals a number's value is shown with (a meter's total: as many as one pulse needs);
    /// nil for a whole number, or what is not a number.
    package var decimals: Int?

    package init(
        key: String, label: String? = nil, objectSuffix: String? = nil, channel: String, value: Value, deviceClass: String? = nil, icon: String? = nil,
        decimals: Int? = nil
    ) {
        self.key = key
        self.label = label
        self.objectSuffix = objectSuffix
        self.channel = channel
        self.value = value
        self.deviceClass = deviceClass
        self.icon = icon
        self.decimals = decimals
    }
}

/// One type of event an entity fires.
package struct EventType: Sendable, Hashable {
    /// Its name in payloads and the entity's `event_types`: `press`, `double_click`, `rotate_left`, `5`, `code`.
    package var name: String
    /// Home Assistant's device trigger `type` for it (`button_short_press`, its name for a short press), or nil when it is not a trigger.
    package var trigger: String?

    package init(_ name: String, trigger: String? = nil) {
        self.name = name
        self.trigger = trigger
    }
}
