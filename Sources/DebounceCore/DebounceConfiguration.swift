/// Everything the debouncer needs to know about one button.
public struct DebounceConfiguration: Sendable, Hashable {
    /// How released → pressed is debounced.
    public var press: DebounceStrategy
    /// How pressed → released is debounced.
    public var release: DebounceStrategy
    /// Which raw level means pressed. Default `activeLow` (button to ground, pull-up).
    public var activeLevel: ActiveLevel

    /// The default for both directions: `defer:10ms`, the window Bounce2 made familiar. It ignores
    /// any spike or bounce shorter than 10 ms and reports 10 ms after the contact settles.
    public static let defaultStrategy = DebounceStrategy.defer(windowNs: 10_000_000)

    public init(
        press: DebounceStrategy = defaultStrategy,
        release: DebounceStrategy = defaultStrategy,
        activeLevel: ActiveLevel = .activeLow
    ) {
        self.press = press
        self.release = release
        self.activeLevel = activeLevel
    }

    /// The same strategy for both directions.
    public init(both strategy: DebounceStrategy, activeLevel: ActiveLevel = .activeLow) {
        self.init(press: strategy, release: strategy, activeLevel: activeLevel)
    }

    /// The strategy for a change away from the given reported state: `release` when pressed, else `press`.
    @inlinable
    public func strategy(leaving pressed: Bool) -> DebounceStrategy {
        pressed ? release : press
    }
}
