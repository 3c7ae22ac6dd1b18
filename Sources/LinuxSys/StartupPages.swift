#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A long-running command (`run`, `watch`, `record`) touches most of the code and read-only data it will
/// ever use while starting: parsing the command line, loading and checking the configuration (libyaml),
/// applying relocations. Those clean pages of the executable stay mapped and count in its
/// RSS (about 6.5 MB of 14 to 17 MB) although the event loop never needs them again. So once the start
/// is over (the configuration loaded, the lines requested), just before the event loop first waits
/// (the executable's `runToEnd`), the executable's read-only mappings are paged out (`MADV_PAGEOUT`,
/// Linux 5.4); what the loop still uses faults back in at its first wakeups (the packaged binary:
/// 8.9 MiB RSS for `watch`, 9.4 MiB for `run`, measured with packaging/measure-memory). Nothing changes
/// but memory: no data is written, and on older kernels the call simply fails and is ignored. It is done on the main thread, before the loop runs: a thread of
/// its own, sleeping through the first seconds, made every system call on a descriptor costlier for
/// those seconds (a process with two threads shares its descriptor table, so the kernel counts
/// references on each use) and paged the code out under the loop's feet mid-run.
package enum StartupPages {
    /// Set by the executable's `main` for the long-running commands: `releaseIfWanted()` then pages out.
    /// Read and written on the main thread only.
    nonisolated(unsafe) package static var isWanted = false

    /// Pages out the executable's read-only mappings once, if `isWanted` (see the type's documentation).
    package static func releaseIfWanted() {
        guard isWanted else { return }
        isWanted = false
        release()
    }

    /// Pages out the executable's own mappings (`MADV_PAGEOUT`): the read-only ones (code and constant
    /// data) whole, and of the writable ones (`.data`, relocated metadata) only the pages that are still
    /// the file's (never written), so that nothing the program wrote is swapped out. Each range is then
    /// marked `MADV_RANDOM`: a page the loop needs again is read alone, not with the up to 128 KiB of
    /// neighbours that read-around would bring back.
    package static func release() {
        var exe = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &exe, exe.count - 1)
        guard length > 0, let maps = fopen("/proc/self/maps", "r") else { return }
        defer { fclose(maps) }
        let path = String(decoding: exe[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let pagemap = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC)
        defer { if pagemap >= 0 { close(pagemap) } }
        var line: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(line) }
        while getline(&line, &capacity, maps) > 0, let line {
            // "start-end perms offset dev inode   path"
            let fields = String(cString: line).split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 6, fields[1].first == "r",
                  fields[5].hasSuffix("\n") ? fields[5].dropLast() == path : fields[5] == path else { continue }
            let bounds = fields[0].split(separator: "-")
            guard bounds.count == 2, let start = UInt(bounds[0], radix: 16), let end = UInt(bounds[1], radix: 16), end > start else { continue }
            if fields[1].contains("w") {
                for (runStart, runEnd) in filePageRuns(start: start, end: end, pagemap: pagemap) { pageOut(runStart, runEnd) }
            } else {
                pageOut(start, end)
            }
        }
    }

    /// `MADV_PAGEOUT` (21, Linux 5.4), then `MADV_RANDOM`, on `start..<end`; failures are ignored.
    private static func pageOut(_ start: UInt, _ end: UInt) {
        guard let address = UnsafeMutableRawPointer(bitPattern: start) else { return }
        _ = madvise(address, Int(end - start), 21 /* MADV_PAGEOUT */)
        _ = madvise(address, Int(end - start), MADV_RANDOM)
    }

    /// The runs of pages in `start..<end` that are present and still the file's own (`/proc/self/pagemap`:
    /// bit 63 present, bit 61 file page; a page the program wrote is anonymous), as address ranges.
    package static func filePageRuns(start: UInt, end: UInt, pagemap: Int32) -> [(UInt, UInt)] {
        guard pagemap >= 0 else { return [] }
        let pageSize = UInt(sysconf(Int32(_SC_PAGESIZE)))
        let count = Int((end - start) / pageSize)
        var entries = [UInt64](repeating: 0, count: count)
        let wanted = count * MemoryLayout<UInt64>.size
        let read = entries.withUnsafeMutableBytes { pread(pagemap, $0.baseAddress, wanted, off_t(start / pageSize) * 8) }
        guard read == wanted else { return [] }
        var runs: [(UInt, UInt)] = []
        var runStart: UInt?
        for (index, entry) in entries.enumerated() {
            let address = start + UInt(index) * pageSize
            let isFilePage = entry & (1 << 63) != 0 && entry & (1 << 61) != 0
            if isFilePage, runStart == nil { runStart = address }
            if !isFilePage, let first = runStart { runs.append((first, address)); runStart = nil }
        }
        if let first = runStart { runs.append((first, end)) }
        return runs
    }
}
