#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CGPIOD
import DebounceCore
import EventLoop
import Keypads
import LinuxSys
import SystemPackage

/// A keypad's pins through libgpiod: its rows requested as inputs with both-edge events and their
/// bias (`gdb_request_lines`), its columns as outputs driven low one at a time or all at once and
/// inputs otherwise (`gdb_columns_request`, `gdb_columns_drive`). Rows on one chip, columns on one
/// chip (the same or another). Released when this object goes away, the columns left as inputs
/// (`gdb_columns_release`, `gdb_request_release`).
package final class GPIODMatrixPort: MatrixPort {
    private let rows: UnsafeMutablePointer<gdb_request>
    private let columns: UnsafeMutablePointer<gdb_columns>
    /// The chips, kept open with their requests.
    private let chips: [GPIOChip]
    private let rowCount: Int
    package let descriptors: [FileDescriptor]
    /// Where one read of the rows' edges puts them (`GDB_EVENT_BATCH`), owned by this object.
    private let events: UnsafeMutableBufferPointer<gdb_edge_event>

    /// Requests `rows` (each with its bias) and `columns` (bias ignored: driven or floating), as `consumer`.
    package init(rows: [LineSelection], columns: [LineSelection], consumer: String) throws(GPIOError) {
        for line in rows + columns where line.offset < 0 || line.offset >= line.chip.lineCount {
            throw .offsetOutOfRange(chip: line.chip.name, offset: line.offset, lineCount: line.chip.lineCount)
        }
        guard let rowChip = rows.first?.chip, let columnChip = columns.first?.chip,
            rows.allSatisfy({ $0.chip === rowChip }), columns.allSatisfy({ $0.chip === columnChip })
        else {
            throw .linesOnDifferentChips(Array(Set((rows + columns).map(\.chip.name))).sorted())
        }
        let rowRequest = try GPIODLines.request(rows, consumer: consumer, eventBufferSize: GPIODLines.defaultEventBufferSize)
        let offsets = columns.map { UInt32($0.offset) }
        guard let columnRequest = gdb_columns_request(columnChip.handle, offsets, UInt32(offsets.count), consumer) else {
            let code = Errno(rawValue: errno)
            gdb_request_release(rowRequest)
            if code == .resourceBusy {
                let busy = columns.first { (try? columnChip.lineInfo(offset: $0.offset).isUsed) == true }?.offset ?? columns[0].offset
                throw .lineBusy(chip: columnChip.name, offset: busy, consumer: (try? columnChip.lineInfo(offset: busy).consumer) ?? "")
            }
            throw .system(operation: "requesting the keypad's columns on \(columnChip.name) as outputs", errno: code)
        }
        self.rows = rowRequest
        self.columns = columnRequest
        chips = [rowChip, columnChip]
        rowCount = rows.count
        descriptors = (0..<gdb_request_fd_count(rowRequest)).map { index in
            let raw = gdb_request_fd(rowRequest, index)
            // Non-blocking (fcntl(2)): the read after the last waiting edge returns EAGAIN.
            let flags = fcntl(raw, F_GETFL)
            if flags >= 0 { _ = fcntl(raw, F_SETFL, flags | O_NONBLOCK) }
            return FileDescriptor(rawValue: raw)
        }
        events = .allocate(capacity: Int(GDB_EVENT_BATCH))
        events.initialize(repeating: gdb_edge_event())
    }

    deinit {
        gdb_columns_release(columns)
        gdb_request_release(rows)
        events.deallocate()
    }

    package func drive(_ drive: MatrixDrive) throws(LineError) {
        let column: Int32 = switch drive {
        case .all: -1
        case .column(let index): Int32(index)
        }
        guard gdb_columns_drive(columns, column) == 0 else {
            throw .system(operation: "driving the keypad's columns (gpiod reconfigure)", errno: Errno(rawValue: errno))
        }
    }

    /// Rows pulled up read low where a key joins them to a driven column.
    package func rowsDown(atNs timeNs: Int64) throws(LineError) -> UInt32 {
        var levels: UInt64 = 0
        guard gdb_request_get_levels(rows, &levels) == 0 else {
            throw .system(operation: "reading the keypad's rows (gpiod get values)", errno: Errno(rawValue: errno))
        }
        let mask: UInt64 = (1 << UInt64(rowCount)) - 1
        return UInt32(truncatingIfNeeded: ~levels & mask)
    }

    /// Reads every edge waiting (one read of up to `GDB_EVENT_BATCH`, again while a read fills it).
    package func readRowEdges(descriptor: Int, events pollEvents: PollEvents, notBeforeNs: Int64) throws(LineError) -> Int64? {
        var earliest: Int64?
        while true {
            let count = gdb_request_read_events(rows, UInt32(descriptor), events.baseAddress, UInt32(events.count))
            if count < 0 {
                let code = Errno(rawValue: errno)
                if code == .wouldBlock || code == .resourceTemporarilyUnavailable { return earliest }
                throw .system(operation: "reading the keypad's row edges", errno: code)
            }
            for index in 0..<Int(count) {
                let timeNs = Int64(clamping: events[index].timestamp_ns)
                if timeNs >= notBeforeNs { earliest = min(earliest ?? timeNs, timeNs) }
            }
            if count < GDB_EVENT_BATCH { return earliest }
        }
    }
}
