import KeptState
import FuzzSupport

/// A state file of signed values, as an encoder's `positions` file (`StateFile.positions`, in the
/// Inputs module): `StateFileFormat.parse` gives entries or a `KeptStateError` with a message that
/// names the file and, for a line's error, a line the input has. Accepted entries have valid,
/// distinct names and values in -Int64.max...Int64.max, and `format` writes them to text that parses
/// back to the same entries.
private let file = StateFile(
    fileName: "positions", header: "# positions", fileNoun: "encoder position file", entryNoun: "encoder", anEntry: "an encoder",
    entriesNoun: "encoders", valueNoun: "position", lineMeaning: "an encoder's name and its position", contents: "the encoders' positions",
    recovery: nil, freshStart: "0", minimumValue: -Int64.max, valueWhenMissing: nil, keptIn: "encoders: positions kept in",
    lostChanges: { _ in "" }, simulationNote: { _ in "" })

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let positions: [StateFileEntry]
    do {
        positions = try StateFileFormat.parse(bytes, path: "fuzz/positions", kind: file)
    } catch {
        Fuzz.require(!error.description.isEmpty, "an error without a message")
        Fuzz.require(error.description.contains("fuzz/positions"), "an error that does not name the file: \(error)")
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
    Fuzz.require(Set(positions.map(\.name)).count == positions.count, "a name twice: \(positions)")
    for entry in positions {
        Fuzz.require(StateFileFormat.isValidName(entry.name), "an invalid name: '\(entry.name)'")
        Fuzz.require(entry.value != Int64.min, "a position out of range: \(entry)")
    }
    let split = positions.count / 2
    let text = StateFileFormat.format(Array(positions[..<split]), kept: Array(positions[split...]), kind: file)
    Fuzz.require(
        (try? StateFileFormat.parse(Array(text.utf8), path: "fuzz/positions", kind: file)) == positions, "does not read back: \(positions) as '\(text)'")
    return 0
}
