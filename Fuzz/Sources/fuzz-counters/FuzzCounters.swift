import CounterState
import FuzzSupport

/// The counters' state file: `CounterStateFile.parse` gives totals or a `CounterStateError` with a
/// message and, for a line's error, a line the input has. Accepted totals have valid, distinct names
/// and totals of 0 or more, and `format` writes them to text that parses back to the same totals.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let totals: [CounterTotal]
    do {
        totals = try CounterStateFile.parse(bytes, path: "fuzz/counters")
    } catch {
        Fuzz.require(!error.description.isEmpty, "an error without a message")
        Fuzz.require(error.description.contains("fuzz/counters"), "an error that does not name the file: \(error)")
        let lines = Fuzz.lineCount(UnsafeRawBufferPointer(start: data, count: size))
        switch error {
        case .foreign(_, let line, _, .counters), .unsupportedFormat(_, let line, _), .malformedLine(_, let line, _, .counters),
            .badName(_, let line, _), .badTotal(_, let line, _, _, .counters):
            Fuzz.require(line >= 0 && line <= lines, "line \(line) of \(lines): \(error)")
        case .duplicateName(_, let line, _, let firstLine):
            Fuzz.require(firstLine >= 1 && firstLine < line && line <= lines, "lines \(firstLine) and \(line) of \(lines): \(error)")
        case .empty(_, .counters):
            Fuzz.require(size == 0, "a file of \(size) bytes called empty")
        case .tooLarge:
            Fuzz.require(size > CounterStateFile.maximumBytes, "a file of \(size) bytes called too large")
        default:
            Fuzz.require(false, "an error the parser does not give: \(error)")
        }
        return 0
    }
    Fuzz.require(Set(totals.map(\.name)).count == totals.count, "a name twice: \(totals)")
    for entry in totals {
        Fuzz.require(CounterStateFile.isValidName(entry.name), "an invalid name: '\(entry.name)'")
        Fuzz.require(entry.total >= 0, "a negative total: \(entry)")
    }
    let split = totals.count / 2
    let text = CounterStateFile.format(Array(totals[..<split]), kept: Array(totals[split...]))
    Fuzz.require(
        (try? CounterStateFile.parse(Array(text.utf8), path: "fuzz/counters")) == totals, "does not read back: \(totals) as '\(text)'")
    return 0
}
