#if canImport(Glibc)
import Glibc
#endif
import LinuxSys
import Testing

/// Mapping the code in (`ResidentCode.mapIn`) puts every page of the process's code into its page
/// table, where a dropped page cache cannot take it, and leaves a file mapped only as data alone. One
/// test at a time: each maps in for the whole process.
@Suite(.serialized) struct ResidentCodeTests {
    static let pageSize = UInt(sysconf(Int32(_SC_PAGESIZE)))

    /// How many pages of `start..<end` are present in this process's page table (`/proc/self/pagemap`,
    /// bit 63 of each page's entry), and how many pages that is.
    static func presentPages(_ start: UInt, _ end: UInt) throws -> (present: Int, of: Int) {
        let pagemap = open("/proc/self/pagemap", O_RDONLY)
        try #require(pagemap >= 0)
        defer { close(pagemap) }
        let count = Int((end - start) / pageSize)
        var entries = [UInt64](repeating: 0, count: count)
        let wanted = count * MemoryLayout<UInt64>.size
        let read = entries.withUnsafeMutableBytes { pread(pagemap, $0.baseAddress, wanted, off_t(start / pageSize) * 8) }
        try #require(read == wanted)
        return (entries.filter { $0 & (1 << 63) != 0 }.count, count)
    }

    /// The executable mappings of this process's own executable (`/proc/self/exe`).
    static func executableCode() throws -> [(UInt, UInt)] {
        var path = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &path, path.count - 1)
        try #require(length > 0)
        let exe = String(decoding: path[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let maps = try #require(fopen("/proc/self/maps", "r"))
        defer { fclose(maps) }
        var line: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(line) }
        var ranges: [(UInt, UInt)] = []
        while getline(&line, &capacity, maps) > 0, let line {
            let fields = String(cString: line).split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 6, fields[1].hasPrefix("r-x"), fields[5].trimmingSuffix("\n") == exe else { continue }
            let bounds = fields[0].split(separator: "-").compactMap { UInt($0, radix: 16) }
            if bounds.count == 2 { ranges.append((bounds[0], bounds[1])) }
        }
        return ranges
    }

    /// A file of 4 pages in the page cache (just written), mapped with `protection` and not touched;
    /// `body` gets the mapping's start and end.
    static func withUntouchedMapping(protection: Int32, _ body: (UInt, UInt) throws -> Void) throws {
        var template = Array("/tmp/gpio-debounce-resident-XXXXXX".utf8CString)
        let file = mkstemp(&template)
        try #require(file >= 0)
        defer { close(file); unlink(template) }
        let length = 4 * Int(Self.pageSize)
        let bytes = [UInt8](repeating: 7, count: length)
        try #require(write(file, bytes, bytes.count) == bytes.count)
        let mapping = try #require(mmap(nil, length, protection, MAP_PRIVATE, file, 0))
        try #require(mapping != MAP_FAILED, "mmap: \(String(cString: strerror(errno)))")
        defer { munmap(mapping, length) }
        let start = UInt(bitPattern: mapping)
        try #require(try Self.presentPages(start, start + UInt(length)).present == 0)
        try body(start, start + UInt(length))
    }

    @Test func theCodeIsMappedInAndAFileMappedAsDataIsNot() throws {
        try Self.withUntouchedMapping(protection: PROT_READ) { dataStart, dataEnd in
            let code = try Self.executableCode()
            try #require(!code.isEmpty)
            ResidentCode.mapIn()
            for (start, end) in code {
                let pages = try Self.presentPages(start, end)
                #expect(pages.present == pages.of, "\(pages.present) of \(pages.of) pages of the code at \(String(start, radix: 16))")
            }
            #expect(try Self.presentPages(dataStart, dataEnd).present == 0)
            #expect(!ResidentCode.codeRanges().contains { $0.0 == dataStart })
        }
    }

    /// Code mapped after a first call (a library opened later; here a file mapped as code) is among
    /// the code ranges, and a call maps it in; a further call leaves it be.
    @Test func codeMappedLaterIsMappedInOnce() throws {
        try Self.withUntouchedMapping(protection: PROT_READ | PROT_EXEC) { start, end in
            let ranges = ResidentCode.codeRanges().filter { $0.0 == start }
            #expect(ranges.map(\.1) == [end])
            #expect(ResidentCode.mapIn(ranges) == Int(end - start))
            let pages = try Self.presentPages(start, end)
            #expect(pages.present == pages.of)
            #expect(ResidentCode.mapIn(ranges) == 0)
        }
    }
}

extension Substring {
    /// This text without `suffix` at its end, if it ends with it.
    fileprivate func trimmingSuffix(_ suffix: String) -> Substring { hasSuffix(suffix) ? dropLast(suffix.count) : self }
}
