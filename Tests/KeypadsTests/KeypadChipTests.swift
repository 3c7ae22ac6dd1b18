import DebounceCore
import EventLoop
import Keypads
import LineInput
import LinuxSys
import Pipeline
import Simulation
import SystemPackage
import Testing

/// A keypad whose chip goes away and comes back (a port that waits for it, as the daemon's does): its
/// keys are unavailable, nothing is driven or read meanwhile and their state stands; once back a scan
/// starts at once from that state.
@Suite struct KeypadChipTests {
    static let ms: Int64 = 1_000_000
    static let matrix = MatrixConfiguration(rows: 4, columns: 4)

    /// A simulated matrix on a chip that the test takes away (`chipGone`) and brings back: while away,
    /// driving or reading it fails with `chipVanished`, as a real request's ioctl does.
    final class VanishingPort: MatrixPort {
        let inner: SimulatedMatrixPort
        let watch: StopSwitch
        /// Stands for the rows' request: readable when the chip goes away, as a removed chip's request is.
        let rows: StopSwitch
        /// Whether the chip's device file is gone, as the next `checkChips` finds it.
        var chipGone = false
        private(set) var away = false
        /// Drives and row reads made (none may be made while away).
        private(set) var calls = 0

        init(contacts: [[Edge]]) throws {
            inner = SimulatedMatrixPort(matrix: SimulatedMatrix(configuration: KeypadChipTests.matrix, keyEdges: contacts), startNs: 0)
            watch = try StopSwitch()
            rows = try StopSwitch()
        }

        var nextChangeNs: Int64? { inner.nextChangeNs }
        var waitsForVanishedChips: Bool { true }
        var chipWatchDescriptors: [FileDescriptor] { [watch.descriptor] }
        var descriptors: [FileDescriptor] { away ? [] : [rows.descriptor] }
        func readRowEdges(descriptor: Int, events: PollEvents, notBeforeNs: Int64) throws(LineError) -> Int64? {
            guard !chipGone else { throw .chipVanished(chip: "gpiochip5") }
            return nil
        }
        var isAway: Bool { away }
        func drive(_ drive: MatrixDrive) throws(LineError) {
            guard !away, !chipGone else { throw .chipVanished(chip: "gpiochip5") }
            calls += 1
            inner.drive(drive)
        }
        func rowsDown(atNs timeNs: Int64) throws(LineError) -> UInt32 {
            guard !away, !chipGone else { throw .chipVanished(chip: "gpiochip5") }
            calls += 1
            return inner.rowsDown(atNs: timeNs)
        }
        func takeChanges(byNs timeNs: Int64, notBeforeNs: Int64) -> Int64? { inner.takeChanges(byNs: timeNs, notBeforeNs: notBeforeNs) }
        func checkChips(linesFailed: Bool) -> [MatrixPortAvailability] {
            var changes: [MatrixPortAvailability] = []
            if !away, linesFailed || chipGone {
                away = true
                changes.append(MatrixPortAvailability(chip: "gpiochip5", isAvailable: false))
            }
            if away, !chipGone {
                away = false
                inner.drive(.all)
                changes.append(MatrixPortAvailability(chip: "gpiochip6", isAvailable: true))
            }
            return changes
        }
    }

    /// Delivers what is due at every `stepNs` from `fromNs` to `toNs`, and returns the edges.
    static func deliver(_ source: KeypadSource, from fromNs: Int64, to toNs: Int64, stepNs: Int64 = 10_000) throws -> [LineEdge] {
        var batch = EdgeBatch()
        var nowNs = fromNs
        while nowNs <= toNs {
            try source.deliverDue(byNs: nowNs, into: &batch)
            nowNs += stepNs
        }
        #expect(batch.availability.isEmpty)
        return batch.edges
    }

    /// Key 5 held from 10 ms to 300 ms, key 7 typed at 600 ms; the chip away from 100 ms to 400 ms.
    @Test func aKeyLetGoWhileTheChipWasAwayIsReleasedWhenItIsBack() throws {
        let contacts = (0..<16).map { key -> [Edge] in
            switch key {
            case 5: [Edge(level: .low, timeNs: 10 * Self.ms), Edge(level: .high, timeNs: 300 * Self.ms)]
            case 7: [Edge(level: .low, timeNs: 600 * Self.ms), Edge(level: .high, timeNs: 700 * Self.ms)]
            default: []
            }
        }
        let port = try VanishingPort(contacts: contacts)
        let source = KeypadSource(configuration: Self.matrix, port: port)
        #expect(source.descriptors == [port.watch.descriptor, port.rows.descriptor])
        let pressed = try Self.deliver(source, from: 0, to: 99 * Self.ms)
        #expect(pressed.map(\.line) == [5] && pressed.first?.edge.level == .low)
        // The watch says the chip is gone: the keys are unavailable, nothing is due or driven, only the
        // watch is polled, and key 5 stays down.
        port.chipGone = true
        var batch = EdgeBatch()
        try source.readReady(descriptor: 0, events: PollEvents(rawValue: 0), into: &batch)
        #expect(batch.availability == [ChipAvailability(chip: "gpiochip5", lines: Array(0..<16), isAvailable: false)])
        #expect(source.isAway && source.nextDueNs == nil && source.descriptors == [port.watch.descriptor])
        let calls = port.calls
        #expect(try Self.deliver(source, from: 100 * Self.ms, to: 399 * Self.ms, stepNs: Self.ms).isEmpty)
        let levelWhileAway = try source.readLevel(line: 5)
        #expect(port.calls == calls && levelWhileAway == .low)
        // Back: a scan starts at the next delivery and finds key 5 let go; then key 7 is typed.
        port.chipGone = false
        batch = EdgeBatch()
        try source.readReady(descriptor: 0, events: PollEvents(rawValue: 0), into: &batch)
        #expect(batch.availability == [ChipAvailability(chip: "gpiochip6", lines: Array(0..<16), isAvailable: true)])
        let after = try Self.deliver(source, from: 400 * Self.ms, to: 800 * Self.ms)
        #expect(after.map(\.line) == [5, 7, 7])
        #expect(after.map(\.edge.level) == [.high, .low, .high])
        #expect((after.first?.edge.timeNs ?? .max) < 401 * Self.ms)
    }

    /// The rows' request of a removed chip polls readable before `/dev` changes, and reading it fails
    /// with `chipVanished`: the lines are let go (the run goes on), and requested again once it is back.
    @Test func aRowReadThatFindsTheChipGoneLetsGoOfTheLines() throws {
        let port = try VanishingPort(contacts: Array(repeating: [], count: 16))
        let source = KeypadSource(configuration: Self.matrix, port: port)
        port.chipGone = true
        var batch = EdgeBatch()
        try source.readReady(descriptor: 1, events: PollEvents(rawValue: 0), into: &batch)
        #expect(batch.availability == [ChipAvailability(chip: "gpiochip5", lines: Array(0..<16), isAvailable: false)])
        #expect(source.isAway && source.descriptors == [port.watch.descriptor])
        port.chipGone = false
        try source.readReady(descriptor: 0, events: PollEvents(rawValue: 0), into: &batch)
        #expect(batch.availability.map(\.isAvailable) == [false, true])
        #expect(!source.isAway && source.descriptors == [port.watch.descriptor, port.rows.descriptor])
    }

    /// A scan's drive fails with `chipVanished` (the chip went and came back between two looks at
    /// `/dev`): the lines are let go and requested again in one go, and the scan starts again.
    @Test func aScanThatFindsTheChipGoneRequestsItAgain() throws {
        let contacts = (0..<16).map { $0 == 2 ? [Edge(level: .low, timeNs: 10 * Self.ms), Edge(level: .high, timeNs: 200 * Self.ms)] : [] }
        let port = try VanishingPort(contacts: contacts)
        let source = KeypadSource(configuration: Self.matrix, port: port)
        var batch = EdgeBatch()
        try source.deliverDue(byNs: 10 * Self.ms, into: &batch)
        // Column 0 is driven: the next step fails.
        port.chipGone = true
        try source.deliverDue(byNs: 11 * Self.ms, into: &batch)
        #expect(batch.availability.map(\.isAvailable) == [false])
        port.chipGone = false
        try source.readReady(descriptor: 0, events: PollEvents(rawValue: 0), into: &batch)
        #expect(batch.availability.map(\.isAvailable) == [false, true])
        batch.availability.removeAll()
        let edges = try Self.deliver(source, from: 12 * Self.ms, to: 300 * Self.ms)
        #expect(edges.map(\.line) == [2, 2] && edges.map(\.edge.level) == [.low, .high])
    }
}
