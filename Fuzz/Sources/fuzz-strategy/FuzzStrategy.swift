import DebounceCore
import FuzzSupport

/// Strategies: `DebounceStrategy(parsing:)` gives a strategy with durations from 0 to 1 hour or a
/// `DebounceSyntaxError`; an accepted strategy's description parses back to the same strategy.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let text = Fuzz.text(data, size)
    let strategy: DebounceStrategy
    do {
        strategy = try DebounceStrategy(parsing: text)
    } catch {
        Fuzz.require(!error.description.isEmpty, "an error without a message")
        return 0
    }
    let range = 0...DurationSyntax.maximumNs
    Fuzz.require(range.contains(strategy.stabilityNs) && range.contains(strategy.lockoutNs), "'\(text)' gave \(strategy)")
    Fuzz.require(
        try DebounceStrategy(parsing: strategy.description) == strategy, "'\(text)' gave \(strategy), which reads back differently")
    return 0
}
