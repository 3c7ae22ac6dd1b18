import CounterState
import FuzzSupport

/// The encoders' position file: `EncoderPositionFile.parse` gives positions or a `CounterStateError`
/// with a message that names the file and, for a line's error, a line the input has. Accepted
/// positions have valid, distinct names and values in -Int64.max...Int64.max, and `format` writes
/// them to text that parses back to the same positions.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let positions: [EncoderPosition]
    do {
        positions = try EncoderPositionFile.parse(bytes, path: "fuzz/positions")
    } catch {
        Fuzz.require(!error.description.isEmpty, "an error without a message")
        Fuzz.require(error.description.contains("fuzz/positions"), "an error that does not name the file: \(error)")
        let lines = Fuzz.lineCount(UnsafeRawBufferPointer(start: data, count: size))
        switch error {
        case .foreign(_, let line, _, .positions), .unsupportedFormat(_, let line, _), .malformedLine(_, let line, _, .positions),
            .badName(_, let line, _), .badTotal(_, let line, _, _, .positions):
            Fuzz.require(line >= 0 && line <= lines, "line \(line) of \(lines): \(error)")
        case .duplicateName(_, let line, _, let firstLine):
            Fuzz.require(firstLine >= 1 && firstLine < line && line <= lines, "lines \(firstLine) and \(line) of \(lines): \(error)")
        case .empty(_, .positions):
            Fuzz.require(size == 0, "a file of \(size) bytes called empty")
        case .tooLarge:
            Fuzz.require(size > CounterStateFile.maximumBytes, "a file of \(size) bytes called too large")
        default:
            Fuzz.require(false, "an error the parser does not give: \(error)")
        }
        return 0
    }
    Fuzz.require(Set(positions.map(\.name)).count == positions.count, "a name twice: \(positions)")
    for entry in positions {
        Fuzz.require(CounterStateFile.isValidName(entry.name), "an invalid name: '\(entry.name)'")
        Fuzz.require(entry.position != Int64.min, "a position out of range: \(entry)")
    }
    let split = positions.count / 2
    let text = EncoderPositionFile.format(Array(positions[..<split]), kept: Array(positions[split...]))
    Fuzz.require(
        (try? EncoderPositionFile.parse(Array(text.utf8), path: "fuzz/positions")) == positions, "does not read back: \(positions) as '\(text)'")
    return 0
}
