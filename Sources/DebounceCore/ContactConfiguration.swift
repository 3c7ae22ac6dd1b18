/// How a contact (a door or window reed switch, a PIR's output, a leak sensor) reports its state,
/// on top of its debouncer: each state must last this long before it is reported (ESPHome's
/// `delayed_on` and `delayed_off`; Home Assistant's `on_delay`/`off_delay`).
public struct ContactConfiguration: Sendable, Hashable {
    /// How long the contact must stay on before "on" is reported, in nanoseconds; 0 reports it at once.
    public var onDelayNs: Int64
    /// How long the contact must stay off before "off" is reported, in nanoseconds; 0 reports it at once.
    public var offDelayNs: Int64

    public init(onDelayNs: Int64 = 0, offDelayNs: Int64 = 0) {
        self.onDelayNs = onDelayNs
        self.offDelayNs = offDelayNs
    }
}
