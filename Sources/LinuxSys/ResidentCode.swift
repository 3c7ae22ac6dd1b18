#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The process's code in memory before its event loop first waits, so that no edge waits for a read
/// from the disk.
///
/// A long-running command (`run`, `watch`, `record`) runs part of its code for the first time only
/// when the first edge comes: the loop's wakeup, the line's read, the stages, the formatting, the
/// sinks. A page of code that was never touched, or whose page-cache copy the kernel dropped while the
/// program slept, is read from its file on first use: a major page fault, on a Raspberry Pi a random
/// read from the SD card. So every readable mapping of every code object of the process (the
/// executable, the shared libraries, the dynamic loader: each file with an executable mapping) is read
/// in with one readahead (`MADV_WILLNEED`) and mapped into the process's page table
/// (`MADV_POPULATE_READ`, Linux 5.14): as the command starts, before it requests any line (the
/// executable's `main`), so that the reading holds up no edge; and once more just before the loop
/// first waits (the executable's `runToEnd`), for the libraries opened in between (libmosquitto).
/// Dropping the page cache (`echo 3 > /proc/sys/vm/drop_caches`) leaves alone the pages a process
/// maps; memory pressure may still reclaim them, as it may any clean page.
///
/// What it costs is resident clean pages of those files (the binary's size, about, shared with every
/// other process running it): nothing is written, so private dirty memory does not grow (a read of a
/// private file mapping maps the page cache's own page). Locking the pages (`mlock`) would keep them
/// under memory pressure too, but it counts against `RLIMIT_MEMLOCK` (8 MiB for a service by
/// default, less than the binary) and takes memory the kernel could otherwise reclaim.
///
/// On a kernel before 5.14 only the readahead happens: the pages are in the page cache and come into
/// the page table at first use without a read from the disk, unless the cache was dropped in between.
package enum ResidentCode {
    /// Set by the executable's `main` for the long-running commands: `mapInIfWanted()` then maps in.
    /// Read and written on the main thread only.
    nonisolated(unsafe) package static var isWanted = false
    /// The ranges mapped in so far (start and end addresses): a later call leaves them be. Read and
    /// written on the main thread only.
    nonisolated(unsafe) private static var mappedIn: Set<ClosedRange<UInt>> = []

    /// Maps in the code not mapped in before, if `isWanted` (see the type's documentation).
    package static func mapInIfWanted() {
        guard isWanted else { return }
        mapIn()
    }

    /// Reads in and maps every range of `ranges` (start and end addresses, by default `codeRanges()`)
    /// that an earlier call did not (see the type's documentation). Returns the number of bytes of the
    /// ranges it mapped in. Failures are ignored: a page that is not mapped in comes in at its first
    /// use, as it would without this.
    @discardableResult
    package static func mapIn(_ ranges: [(UInt, UInt)] = codeRanges()) -> Int {
        var bytes = 0
        for (start, end) in ranges where mappedIn.insert(start...end).inserted {
            guard let address = UnsafeMutableRawPointer(bitPattern: start) else { continue }
            let length = Int(end - start)
            _ = madvise(address, length, MADV_WILLNEED)
            _ = madvise(address, length, 22 /* MADV_POPULATE_READ, Linux 5.14 */)
            bytes += length
        }
        return bytes
    }

    /// The readable mappings (start and end addresses) of the files of which this process has an
    /// executable mapping, from `/proc/self/maps`. Files mapped only as data (a locale archive, a
    /// trace a program maps) are left out.
    package static func codeRanges() -> [(UInt, UInt)] {
        guard let maps = fopen("/proc/self/maps", "r") else { return [] }
        defer { fclose(maps) }
        var line: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(line) }
        // "start-end perms offset dev inode   path": a file is known by its device and inode.
        var readable: [(start: UInt, end: UInt, file: Substring)] = []
        var codeFiles: Set<Substring> = []
        while getline(&line, &capacity, maps) > 0, let line {
            let text = String(cString: line)
            let fields = text.split(separator: " ", maxSplits: 5, omittingEmptySubsequences: true)
            guard fields.count == 6, fields[1].first == "r", fields[4] != "0" else { continue }
            let bounds = fields[0].split(separator: "-")
            guard bounds.count == 2, let start = UInt(bounds[0], radix: 16), let end = UInt(bounds[1], radix: 16), end > start else { continue }
            let file = text[fields[3].startIndex..<fields[4].endIndex]
            if fields[1].contains("x") { codeFiles.insert(file) }
            readable.append((start, end, file))
        }
        return readable.filter { codeFiles.contains($0.file) }.map { ($0.start, $0.end) }
    }
}
