/// Which outputs of a pulse counter (`counters:`) start an action: `on: pulse` (each counted pulse) or
/// `on: rate` (each rate the counter reports: at every pulse, and when the rate falls with no pulse).
package enum CounterTrigger: String, Sendable, Hashable, CaseIterable {
    case pulse, rate
}
