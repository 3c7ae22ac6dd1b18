import KeptState
import FuzzSupport

/// A state file of values 0 or more, as a meter's `counters` file (`StateFile.counters`, in the
/// Inputs module): `StateFileFormat.parse` gives entries or a `KeptStateError` with a message and,
/// for a line's error, a line the input has. Accepted entries have valid, distinct names and values
/// of 0 or more, and `format` writes them to text that parses back to the same entries.
private let file = StateFile(
    fileName: "counters", header: "# totals", fileNoun: "counter state file", entryNoun: "counter", anEntry: "a counter",
    entriesNoun: "counters", valueNoun: "total", lineMeaning: "a counter's name and its total", contents: "the counters' totals",
    recovery: nil, freshStart: "0", minimumValue: 0, valueWhenMissing: 0, keptIn: "counters: kept in",
    lostChanges: { _ in "" }, simulationNote: { _ in "" })

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let totals: [StateFileEntry]
    do {
        totals = try StateFileFormat.parse(bytes, path: "fuzz/counters", kind: file)
    } catch {
        Fuzz.require(!error.description.isEmpty, "an error without a message")
        Fuzz.require(error.description.contains("fuzz/counters"), "an error that does not name the file: \(error)")
        let lines = Fuzz.lineCount(UnsafeRawBufferPointer(start: data, count: size))
        switch error {
        case .foreign(_, let line, _, file), .unsupportedFormat(_, let line, _), .malformedLine(_, let line, _, file),
            .badName(_, let line, _), .badTotal(_, let line, _, _, file):
            Fuzz.require(line >= 0 && line <= lines, "line \(line) of \(lines): \(error)")
        case .duplicateName(_, let line, _, let firstLine, file):
            Fuzz.require(firstLine >= 1 && firstLine < line && line <= lines, "lines \(firstLine) and \(line) of \(lines): \(error)")
        case .empty(_, file):
            Fuzz.require(size == 0, "a file of \(size) bytes called empty")
        case .tooLarge:
            Fuzz.require(size > StateFileFormat.maximumBytes, "a file of \(size) bytes called too large")
        default:
            Fuzz.require(false, "an error the parser does not give: \(error)")
        }
        return 0
    }
    Fuzz.require(Set(totals.map(\.name)).count == totals.count, "a name twice: \(totals)")
    for entry in totals {
        Fuzz.require(StateFileFormat.isValidName(entry.name), "an invalid name: '\(entry.name)'")
        Fuzz.require(entry.value >= 0, "a negative total: \(entry)")
    }
    let split = totals.count / 2
    let text = StateFileFormat.format(Array(totals[..<split]), kept: Array(totals[split...]), kind: file)
    Fuzz.require(
        (try? StateFileFormat.parse(Array(text.utf8), path: "fuzz/counters", kind: file)) == totals, "does not read back: \(totals) as '\(text)'")
    return 0
}
