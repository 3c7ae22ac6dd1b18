import Foundation
import LinuxSys
import SystemPackage
import Testing

/// The small reads of the system `doctor` makes: the kernel's release, the process's user and
/// groups, paths, a directory's lock and a TCP server, each checked against what the system says
/// another way.
@Suite struct DiagnosticProbeTests {
    @Test func theKernelReleaseIsTheOneProcPrints() throws {
        let proc = try String(contentsOfFile: "/proc/sys/kernel/osrelease", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(kernelRelease() == proc)
    }

    /// The user and groups as `id` prints them for this process.
    @Test func theUserAndGroupsAreThoseIdPrints() throws {
        let user = ProcessUser.current()
        #expect(user.uid == geteuid())
        #expect(user.isRoot == (geteuid() == 0))
        #expect(user.name == (try Self.output(of: "/usr/bin/id", "-un")))
        let groups = Set(try Self.output(of: "/usr/bin/id", "-Gn").split(separator: " ").map(String.init))
        #expect(Set(user.groups) == groups)
        #expect(user.groups.last == (try Self.output(of: "/usr/bin/id", "-gn")))
    }

    @Test func aPathExistsOrCannotBeOpenedForWritingWithTheReason() throws {
        #expect(PathAccess.exists("/dev/null"))
        #expect(!PathAccess.exists("/nonexistent/gpio-debounce"))
        try PathAccess.openForWriting("/dev/null")
        #expect(throws: Errno.noSuchFileOrDirectory) { try PathAccess.openForWriting("/nonexistent/uinput") }
        #expect(throws: Errno.isDirectory) { try PathAccess.openForWriting("/tmp") }
    }

    /// A directory: ready, to be made, not a directory, or locked by another open file's exclusive
    /// `flock` (as a run holds its state directory's).
    @Test func aDirectorysStandingAndItsLock() throws {
        let directory = NSTemporaryDirectory() + "probe-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(PathAccess.standing(ofDirectory: directory, lockFile: "x.lock") == .ready)
        #expect(PathAccess.standing(ofDirectory: directory + "/a/b", lockFile: "x.lock") == .canBeCreated)
        _ = FileManager.default.createFile(atPath: directory + "/file", contents: Data())
        #expect(PathAccess.standing(ofDirectory: directory + "/file", lockFile: "x.lock") == .notDirectory)
        let lock = open(directory + "/x.lock", O_CREAT | O_RDWR | O_CLOEXEC, 0o644)
        try #require(lock >= 0)
        defer { close(lock) }
        #expect(PathAccess.standing(ofDirectory: directory, lockFile: "x.lock") == .ready)
        try #require(flock(lock, LOCK_EX | LOCK_NB) == 0)
        #expect(PathAccess.standing(ofDirectory: directory, lockFile: "x.lock") == .locked)
        #expect(PathAccess.standing(ofDirectory: directory + "/", lockFile: "x.lock") == .locked)
        flock(lock, LOCK_UN)
        #expect(PathAccess.standing(ofDirectory: directory, lockFile: "x.lock") == .ready)
    }

    /// A listening socket on loopback answers; a port bound but not listening refuses; a name with no
    /// address does not resolve. (The refusing port stays bound while it is probed: a closed port in
    /// the ephemeral range may be taken meanwhile, or even connect to itself, under the load of a
    /// whole test run.)
    @Test func aTCPServerAnswersOrSaysWhyNot() throws {
        let listener = try Self.loopbackSocket()
        defer { close(listener.descriptor) }
        try #require(listen(listener.descriptor, 1) == 0)
        #expect(TCPReachability.probe(host: "127.0.0.1", port: listener.port, timeoutSeconds: 3) == .reachable(address: "127.0.0.1"))
        let silent = try Self.loopbackSocket()
        defer { close(silent.descriptor) }
        #expect(TCPReachability.probe(host: "127.0.0.1", port: silent.port, timeoutSeconds: 3) == .unreachable(reason: "127.0.0.1: Connection refused"))
        guard case .unresolved = TCPReachability.probe(host: "no-such-host.invalid", port: listener.port, timeoutSeconds: 3) else {
            Issue.record("a name under .invalid has no address")
            return
        }
    }

    /// A TCP socket bound to a free port on 127.0.0.1 (not listening), and its port.
    private static func loopbackSocket() throws -> (descriptor: Int32, port: Int) {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(descriptor >= 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0 }
        }
        if !bound { close(descriptor) }
        try #require(bound)
        return (descriptor, Int(UInt16(bigEndian: address.sin_port)))
    }

    private static func output(of path: String, _ arguments: String...) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
