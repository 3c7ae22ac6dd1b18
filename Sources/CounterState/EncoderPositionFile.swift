/// One encoder's position as the position file keeps it.
public struct EncoderPosition: Sendable, Hashable {
    /// The encoder's name in the configuration (`CounterStateFile.isValidName`).
    public var name: String
    /// Its position in detents, as the run left it: -Int64.max...Int64.max (a run clamps it into the
    /// encoder's `min`/`max`).
    public var position: Int64

    public init(name: String, position: Int64) {
        self.name = name
        self.position = position
    }
}

/// The encoders' position file (`<state-dir>/positions`), for the encoders with `restore: true`:
/// human-readable text, one encoder a line, in the counters' file format (`CounterStateFile`) with
/// signed values:
///
///     # gpio-debounce encoder positions (restore: true), in detents. Written by `gpio-debounce run`; edit only while it is stopped.
///     format 1
///     volume 37
///     balance -4
///
/// Comments, blank lines, `\r\n`, the `format 1` line and the names are as in the counters' file; a
/// POSITION is a whole number in decimal digits with an optional leading `-`, -Int64.max...Int64.max.
/// Pure: `parse` and `format` do no I/O (`StateStore` reads and writes the file).
///
/// Public, not package, for the parser's libFuzzer target (Fuzz/), as `CounterStateFile` is.
public enum EncoderPositionFile {
    /// The comment the file starts with.
    public static let header = StateFileKind.positions.header

    /// The positions in `bytes` (the whole file), in the file's order. `path` is only for the errors'
    /// messages; an empty file is `CounterStateError.empty(kind: .positions)`.
    public static func parse(_ bytes: [UInt8], path: String) throws(CounterStateError) -> [EncoderPosition] {
        try CounterStateFile.parse(bytes, path: path, kind: .positions).map { EncoderPosition(name: $0.name, position: $0.value) }
    }

    /// The file's text for `positions` (the run's encoders), then `kept` (names the run does not
    /// restore, under the kept header), each line ending in `\n`.
    public static func format(_ positions: [EncoderPosition], kept: [EncoderPosition] = []) -> String {
        CounterStateFile.format(positions.map { ($0.name, $0.position) }, kept: kept.map { ($0.name, $0.position) }, kind: .positions)
    }
}
