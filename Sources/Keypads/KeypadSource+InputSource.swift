import DebounceCore
import LineInput

/// A keypad is an input of its own: a reload carries its scanner (its keys' state and counts).
extension KeypadSource: InputSource {
    package var carriedState: Any { scanner }

    package func goOn(from state: Any, atNs nowNs: Int64) {
        guard let previous = state as? MatrixScanner else { return }
        goOn(from: previous, atNs: nowNs)
    }

    package func healthLine(name: String) -> String {
        "scans of keypad \(name): \(scanSummary)\(isAway ? "; unavailable: its chip went away" : "")"
    }
}
