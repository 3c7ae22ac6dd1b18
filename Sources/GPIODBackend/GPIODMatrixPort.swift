#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CGPIOD
import DebounceCore
import LineInput
import LinuxSys
import SystemPackage

/// A keypad's pins through libgpiod: its rows requested as inputs with both-edge events and their
/// bias (`gdb_request_lines`), its columns as outputs driven low one at a time or all at once and
/// inputs otherwise (`gdb_columns_request`, `gdb_columns_drive`). Rows on one chip, columns on one
/// chip (the same or another). Released when this object goes away, the columns left as inputs
/// (`gdb_columns_release`, `gdb_request_release`).
///
/// With `waitsForVanishedChips` (the daemon), a chip that goes away does not end the run: an inotify
/// watch on `/dev` (`chipWatchDescriptors`, polled whatever the scan does, so an idle keypad notices
/// too) or a drive or read that fails with `chipVanished` makes `checkChips` release the lines, and the
/// next change in `/dev` that brings the chips back (the same label and line count, under their paths
/// or others, as `GPIODLines` waits for its chips) requests them again (`GPIODMatrixPort+Vanishing.swift`).
package final class GPIODMatrixPort: MatrixPort {
    /// The rows' and columns' requests; `nil` while their chip is away.
    var rows: UnsafeMutablePointer<gdb_request>?
    var columns: UnsafeMutablePointer<gdb_columns>?
    /// The lines, their chips kept open with the requests (a chip that came back replaces them).
    var rowLines: [LineSelection]
    var columnLines: [LineSelection]
    let consumer: String
    private let rowCount: Int
    /// The rows' descriptors; none while their chip is away.
    package internal(set) var descriptors: [FileDescriptor] = []
    /// inotify on `/dev` (`waitsForVanishedChips`), else `nil`.
    let chipWatch: FileWatch?
    /// Where one read of the rows' edges puts them (`GDB_EVENT_BATCH`), owned by this object.
    private let events: UnsafeMutableBufferPointer<gdb_edge_event>

    /// Requests `rows` (each with its bias) and `columns` (bias ignored: driven or floating), as `consumer`.
    /// `waitsForVanishedChips`: a chip that goes away is waited for (see the type's documentation).
    package init(rows: [LineSelection], columns: [LineSelection], consumer: String, waitsForVanishedChips: Bool = false) throws(GPIOError) {
        for line in rows + columns where line.offset < 0 || line.offset >= line.chip.lineCount {
            throw .offsetOutOfRange(chip: line.chip.name, offset: line.offset, lineCount: line.chip.lineCount)
        }
        guard let rowChip = rows.first?.chip, let columnChip = columns.first?.chip,
            rows.allSatisfy({ $0.chip === rowChip }), columns.allSatisfy({ $0.chip === columnChip })
        else {
            throw .linesOnDifferentChips(Array(Set((rows + columns).map(\.chip.name))).sorted())
        }
        (rowLines, columnLines, self.consumer, rowCount) = (rows, columns, consumer, rows.count)
        // Without inotify (no kernel support, limits reached) the port does not wait: a vanished chip
        // ends the run at its next scan, as it does for `watch --keypad`.
        chipWatch = waitsForVanishedChips ? try? FileWatch(directory: GPIODLines.deviceDirectory) : nil
        events = .allocate(capacity: Int(GDB_EVENT_BATCH))
        events.initialize(repeating: gdb_edge_event())
        do throws(GPIOError) {
            try request()
        } catch {
            events.deallocate()
            throw error
        }
    }

    deinit {
        release()
        events.deallocate()
    }

    /// Requests the rows and columns (every column driven, waiting for a key), and reads the rows'
    /// descriptors.
    func request() throws(GPIOError) {
        let columnChip = columnLines[0].chip
        let rowRequest = try GPIODLines.request(rowLines, consumer: consumer, eventBufferSize: GPIODLines.defaultEventBufferSize)
        let offsets = columnLines.map { UInt32($0.offset) }
        guard let columnRequest = gdb_columns_request(columnChip.handle, offsets, UInt32(offsets.count), consumer) else {
            let code = Errno(rawValue: errno)
            gdb_request_release(rowRequest)
            if code == .resourceBusy {
                let busy = columnLines.first { (try? columnChip.lineInfo(offset: $0.offset).isUsed) == true }?.offset ?? columnLines[0].offset
                throw .lineBusy(chip: columnChip.name, offset: busy, consumer: (try? columnChip.lineInfo(offset: busy).consumer) ?? "")
            }
            throw .system(operation: "requesting the keypad's columns on \(columnChip.name) as outputs", errno: code)
        }
        rows = rowRequest
        columns = columnRequest
        descriptors = (0..<gdb_request_fd_count(rowRequest)).map { GPIODLines.nonBlocking(gdb_request_fd(rowRequest, $0)) }
    }

    /// Leaves the columns inputs and releases every line (nothing if they are released already);
    /// `chipGone`: releases them without a call on the lines (`gdb_columns_release_gone`), as no
    /// call may be made on a removed chip's request.
    func release(chipGone: Bool = false) {
        if let columns { chipGone ? gdb_columns_release_gone(columns) : gdb_columns_release(columns) }
        if let rows { gdb_request_release(rows) }
        (rows, columns, descriptors) = (nil, nil, [])
    }

    package func drive(_ drive: MatrixDrive) throws(LineError) {
        let column: Int32 = switch drive {
        case .all: -1
        case .column(let index): Int32(index)
        }
        guard let columns else { throw .chipVanished(chip: columnLines[0].chip.name) }
        guard gdb_columns_drive(columns, column) == 0 else { throw error("driving the keypad's columns (gpiod reconfigure)", chip: columnLines[0].chip.name) }
    }

    /// Rows pulled up read low where a key joins them to a driven column.
    package func rowsDown(atNs timeNs: Int64) throws(LineError) -> UInt32 {
        var levels: UInt64 = 0
        guard let rows else { throw .chipVanished(chip: rowLines[0].chip.name) }
        guard gdb_request_get_levels(rows, &levels) == 0 else { throw error("reading the keypad's rows (gpiod get values)", chip: rowLines[0].chip.name) }
        let mask: UInt64 = (1 << UInt64(rowCount)) - 1
        return UInt32(truncatingIfNeeded: ~levels & mask)
    }

    /// Reads every edge waiting (one read of up to `GDB_EVENT_BATCH`, again while a read fills it).
    package func readRowEdges(descriptor: Int, events pollEvents: PollEvents, notBeforeNs: Int64) throws(LineError) -> Int64? {
        guard let rows else { return nil }
        var earliest: Int64?
        while true {
            let count = gdb_request_read_events(rows, UInt32(descriptor), events.baseAddress, UInt32(events.count))
            if count < 0 {
                let code = Errno(rawValue: errno)
                if code == .wouldBlock || code == .resourceTemporarilyUnavailable { return earliest }
                throw error("reading the keypad's row edges", chip: rowLines[0].chip.name)
            }
            for index in 0..<Int(count) {
                let timeNs = Int64(clamping: events[index].timestamp_ns)
                if timeNs >= notBeforeNs { earliest = min(earliest ?? timeNs, timeNs) }
            }
            if count < GDB_EVENT_BATCH { return earliest }
        }
    }

    /// The error for a failed call on `chip`'s lines: the chip vanished (`ENODEV`, `ENXIO`), or a plain
    /// system error.
    private func error(_ operation: String, chip: String) -> LineError {
        let code = Errno(rawValue: errno)
        if code == .noSuchAddressOrDevice || code == .operationNotSupportedByDevice { return .chipVanished(chip: chip) }
        return .system(operation: operation, errno: code)
    }
}
