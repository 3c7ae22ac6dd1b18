import Foundation
import LinuxSys
import Testing

/// The processors this process may run on.
@Suite struct ProcessorTests {
    /// `Processor.allowedCount` is the CPUs of the affinity mask, as coreutils' `nproc` counts them.
    @Test func allowedProcessorsAreTheAffinityMasks() throws {
        let nproc = Process()
        nproc.executableURL = URL(fileURLWithPath: "/usr/bin/nproc")
        nproc.environment = [:]  // no OMP_NUM_THREADS
        let output = Pipe()
        nproc.standardOutput = output
        try nproc.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        nproc.waitUntilExit()
        #expect(Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) == Processor.allowedCount)
    }
}
