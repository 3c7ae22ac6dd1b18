#if canImport(Glibc)
import Glibc
#endif
import LinuxSys
import Testing

/// The start-up page-out may give back only pages that are still the file's: a page the program wrote
/// (anonymous after copy-on-write) must never be in the runs it pages out.
@Suite struct StartupPagesTests {
    @Test func theRunsOfFilePagesLeaveOutAWrittenPage() throws {
        let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
        var template = Array("/tmp/gpio-debounce-pages-XXXXXX".utf8CString)
        let file = mkstemp(&template)
        try #require(file >= 0)
        defer { close(file); unlink(template) }
        let bytes = [UInt8](repeating: 7, count: 4 * pageSize)
        try #require(write(file, bytes, bytes.count) == bytes.count)
        let mapping = try #require(mmap(nil, 4 * pageSize, PROT_READ | PROT_WRITE, MAP_PRIVATE, file, 0))
        try #require(mapping != MAP_FAILED)
        defer { munmap(mapping, 4 * pageSize) }
        let pages = mapping.assumingMemoryBound(to: UInt8.self)
        var sum = 0
        for page in 0..<4 { sum += Int(pages[page * pageSize]) }  // every page present, the file's
        #expect(sum == 28)
        pages[2 * pageSize] = 9  // page 2 copied on write: the program's own now
        let start = UInt(bitPattern: mapping)
        let pagemap = open("/proc/self/pagemap", O_RDONLY)
        try #require(pagemap >= 0)
        defer { close(pagemap) }
        let runs = StartupPages.filePageRuns(start: start, end: start + UInt(4 * pageSize), pagemap: pagemap)
        let expected = [(start, start + UInt(2 * pageSize)), (start + UInt(3 * pageSize), start + UInt(4 * pageSize))]
        #expect(runs.map(\.0) == expected.map(\.0))
        #expect(runs.map(\.1) == expected.map(\.1))
    }
}
