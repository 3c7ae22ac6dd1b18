import DebounceCore

/// A recorded trace of one or more lines (a button's line, a rotary encoder's A and B) read one change
/// at a time, whatever its format (`TraceLinesReader` for the text format, its line column for several
/// lines; `VCDReader` with one channel or several). Each line's first record is its initial level;
/// every later one is an edge of that line. Records come in the file's order, which is time order for
/// every trace this project writes.
package protocol TraceLinesSource: AnyObject {
    /// How the trace is named in error messages: its path, or `<stdin>`.
    var sourceName: String { get }
    /// How many lines are read: records are of lines `0..<lineCount`, in the order they were asked for.
    var lineCount: Int { get }
    /// How line `index` is named in messages: `line 1`, `channel 'D1'`.
    func lineName(_ index: Int) -> String
    /// The next record, an edge of line `line` (`0..<lineCount`; each line's first is its initial
    /// level), or `nil` at the end.
    func nextLineEdge() throws(TraceError) -> (line: Int, edge: Edge)?
    /// Reads the next records into `records`, from its start, and returns how many (0 at the end): the
    /// next one, then as many more as fit that are already read in, never waiting for input for them (a
    /// trace written into a pipe as it happens is followed record by record). Throws only before the
    /// first record, what `nextLineEdge()` throws. By default, one record a call.
    func readRecords(into records: UnsafeMutableBufferPointer<(line: Int, edge: Edge)>) throws(TraceError) -> Int
}

extension TraceLinesSource {
    package func readRecords(into records: UnsafeMutableBufferPointer<(line: Int, edge: Edge)>) throws(TraceError) -> Int {
        guard !records.isEmpty, let record = try nextLineEdge() else { return 0 }
        records[0] = record
        return 1
    }
}

/// The text format's lines `t_ns,line,level` (and `t_ns,level`, line 0), read for the lines asked for;
/// records of other lines are skipped. Each line's first data line is its initial level. Over a reader
/// that refuses the line column, it reads the one line of a `t_ns,level` trace.
package final class TraceLinesReader: TraceLinesSource {
    package var sourceName: String { reader.sourceName }
    package var lineCount: Int { lines.count }

    private let reader: TraceReader
    /// The line numbers asked for, in order (`--encoder 0,1`: `[0, 1]`).
    private let lines: [Int]
    /// For each line column value `0...TraceReader.maximumLine`, its index in `lines`, or -1.
    private let indexOfLine: [Int]

    /// Reads `lines` (line numbers `0...TraceReader.maximumLine`, different) from `reader`, which must
    /// read the line column unless `lines` is line 0 alone (a `t_ns,level` trace).
    package init(reader: TraceReader, lines: [Int] = [0]) {
        precondition(reader.readsLineColumn || lines == [0], "a reader of several lines reads the line column")
        precondition(Set(lines).count == lines.count && lines.allSatisfy { (0...TraceReader.maximumLine).contains($0) })
        self.reader = reader
        self.lines = lines
        var indexOfLine = [Int](repeating: -1, count: TraceReader.maximumLine + 1)
        for (index, line) in lines.enumerated() { indexOfLine[line] = index }
        self.indexOfLine = indexOfLine
    }

    /// Opens `path` (`-` is standard input) for `lines`.
    package static func open(_ path: String, lines: [Int]) throws(TraceError) -> TraceLinesReader {
        TraceLinesReader(reader: try TraceReader.open(path, readsLineColumn: true), lines: lines)
    }

    package func lineName(_ index: Int) -> String { "line \(lines[index])" }

    package func nextLineEdge() throws(TraceError) -> (line: Int, edge: Edge)? {
        while let edge = try reader.next() {
            let index = indexOfLine[reader.lastRecordLine]
            if index >= 0 { return (index, edge) }
        }
        return nil
    }

    /// The next record (which may wait for input), then the plain `t_ns,level` lines (line 0) already
    /// in the reader's buffer, parsed in one loop: a replay's whole reading, for most of its records.
    package func readRecords(into records: UnsafeMutableBufferPointer<(line: Int, edge: Edge)>) throws(TraceError) -> Int {
        guard !records.isEmpty, let first = try nextLineEdge() else { return 0 }
        records[0] = first
        let lineZero = indexOfLine[0]
        if lineZero >= 0 { return reader.readBuffered(into: records, from: 1, line: lineZero) }
        // Line 0 not asked for: its plain lines are skipped.
        while reader.nextBuffered() != nil {}
        return 1
    }
}

extension VCDReader: TraceLinesSource {
    package var lineCount: Int { max(requestedChannels.count, 1) }

    package func lineName(_ index: Int) -> String {
        "channel '\(index < chosenChannels.count ? chosenChannels[index].fullName : requestedChannels[index])'"
    }

    package func nextLineEdge() throws(TraceError) -> (line: Int, edge: Edge)? {
        try nextChange().map { ($0.channel, $0.edge) }
    }
}
