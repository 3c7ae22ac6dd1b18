import DebounceCore
import FuzzSupport
import TraceFormat

/// The replay text format: `TraceReader` reads the input to its end or its first error, once with the
/// smallest buffer (so lines straddle refills) and once with a buffer holding the whole input. Both
/// must give what a plain line-by-line reading of the format (`reference`) gives: the same edges, and
/// the same error at the same line. Then once more reading the line column (`t_ns,line,level`, a
/// trace of several lines): the same edges with the same lines.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    let expected = reference(bytes)
    for bufferBytes in [1, size + 1] {  // the smallest (4097 bytes), and one holding the whole input
        let reader = TraceReader(
            fileDescriptor: Fuzz.descriptor(holding: bytes), sourceName: "fuzz.csv", ownsFileDescriptor: true,
            bufferBytes: bufferBytes)
        let outcome = Fuzz.readAll(reader, inputBytes: size)
        let error: Stop? =
            switch outcome.error {
            case nil: nil
            case .lineTooLong(_, let line, _)?: .tooLong(line: line)
            case .malformedLine(_, let line, _, _)?: .malformed(line: line)
            case let other?: .other("\(other)")
            }
        Fuzz.require(
            outcome.edges == expected.edges && error == expected.error,
            "buffer \(bufferBytes): \(outcome), expected \(expected.edges.count) edges and \(String(describing: expected.error))")
    }
    let expectedWithLines = reference(bytes, lineColumn: true)
    let reader = TraceReader(
        fileDescriptor: Fuzz.descriptor(holding: bytes), sourceName: "fuzz.csv", ownsFileDescriptor: true, bufferBytes: 1,
        readsLineColumn: true)
    var records: [LineRecord] = []
    var error: Stop?
    do {
        while let edge = try reader.next() {
            records.append(LineRecord(line: reader.lastRecordLine, edge: edge))
            Fuzz.require(records.count <= size, "more edges than input bytes")
        }
    } catch .lineTooLong(_, let line, _) {
        error = .tooLong(line: line)
    } catch .malformedLine(_, let line, _, _) {
        error = .malformed(line: line)
    } catch let other {
        error = .other("\(other)")
    }
    Fuzz.require(
        records == expectedWithLines.records && error == expectedWithLines.error,
        "with the line column: \(records.count) records and \(String(describing: error)), expected \(expectedWithLines.records.count) and \(String(describing: expectedWithLines.error))")
    return 0
}

struct LineRecord: Equatable {
    var line: Int
    var edge: Edge
}

/// `reference` reading the line column too: each record with its line (0 for `t_ns,level`).
func reference(_ bytes: UnsafeRawBufferPointer, lineColumn: Bool) -> (records: [LineRecord], error: Stop?) {
    let read = referenceRecords(bytes, lineColumn: lineColumn)
    return (read.records, read.error)
}

/// The format as the README states it, read the simplest way: line by line, trim, parse.
func reference(_ bytes: UnsafeRawBufferPointer) -> (edges: [Edge], error: Stop?) {
    let read = referenceRecords(bytes, lineColumn: false)
    return (read.records.map(\.edge), read.error)
}

enum Stop: Equatable {
    case tooLong(line: Int)
    case malformed(line: Int)
    case other(String)
}

/// The records of `bytes`: `t_ns,level` lines, and with `lineColumn` also `t_ns,line,level` lines
/// (line 0 to 63).
func referenceRecords(_ bytes: UnsafeRawBufferPointer, lineColumn: Bool) -> (records: [LineRecord], error: Stop?) {
    func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0D }
    let header = Array("t_ns,level".utf8)
    let headerWithLine = Array("t_ns,line,level".utf8)
    var edges: [LineRecord] = []
    var lineStart = 0
    var number = 0
    while lineStart < bytes.count {
        let newline = bytes[lineStart...].firstIndex(of: 0x0A) ?? bytes.count
        number += 1
        defer { lineStart = newline + 1 }
        if newline - lineStart > TraceReader.maximumLineBytes { return (edges, .tooLong(line: number)) }
        var low = lineStart
        if number == 1, bytes[lineStart...].starts(with: [0xEF, 0xBB, 0xBF]) { low += 3 }  // a byte-order mark
        var high = newline
        while low < high, isBlank(bytes[low]) { low += 1 }
        while high > low, isBlank(bytes[high - 1]) { high -= 1 }
        if low == high || bytes[low] == UInt8(ascii: "#") { continue }
        if edges.isEmpty, bytes[low..<high].lazy.filter({ !isBlank($0) }).elementsEqual(header) { continue }
        if lineColumn, edges.isEmpty, bytes[low..<high].lazy.filter({ !isBlank($0) }).elementsEqual(headerWithLine) { continue }
        var index = low
        let negative = bytes[index] == UInt8(ascii: "-")
        if negative || bytes[index] == UInt8(ascii: "+") { index += 1 }
        var magnitude: Int64 = 0
        let digitsStart = index
        while index < high, bytes[index] >= 0x30, bytes[index] <= 0x39 {
            let (times10, overflow1) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(Int64(bytes[index] - 0x30))
            if overflow1 || overflow2 { return (edges, .malformed(line: number)) }
            magnitude = sum
            index += 1
        }
        if index == digitsStart { return (edges, .malformed(line: number)) }
        while index < high, isBlank(bytes[index]) { index += 1 }
        guard index < high, bytes[index] == UInt8(ascii: ",") else { return (edges, .malformed(line: number)) }
        index += 1
        while index < high, isBlank(bytes[index]) { index += 1 }
        var line = 0
        if lineColumn, !(high - index == 1 && (bytes[index] == UInt8(ascii: "0") || bytes[index] == UInt8(ascii: "1"))) {
            let digitsStart = index
            while index < high, bytes[index] >= 0x30, bytes[index] <= 0x39 {
                line = min(line * 10 + Int(bytes[index] - 0x30), 64)
                index += 1
            }
            guard index > digitsStart, line <= 63 else { return (edges, .malformed(line: number)) }
            while index < high, isBlank(bytes[index]) { index += 1 }
            guard index < high, bytes[index] == UInt8(ascii: ",") else { return (edges, .malformed(line: number)) }
            index += 1
            while index < high, isBlank(bytes[index]) { index += 1 }
        }
        guard high - index == 1, bytes[index] == UInt8(ascii: "0") || bytes[index] == UInt8(ascii: "1") else {
            return (edges, .malformed(line: number))
        }
        edges.append(
            LineRecord(line: line, edge: Edge(level: bytes[index] == UInt8(ascii: "0") ? .low : .high, timeNs: negative ? -magnitude : magnitude)))
    }
    return (edges, nil)
}
