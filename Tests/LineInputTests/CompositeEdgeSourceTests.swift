import DebounceCore
import LineInput
import LinuxSys
import SystemPackage
import Testing

/// Several sources as one: the second source's lines follow the first's, in levels, edges, losses,
/// chips and descriptors alike.
@Suite struct CompositeEdgeSourceTests {
    /// A source of `lineCount` lines whose edges, losses and chip changes are given, each line reading
    /// `levels[line]`; `descriptors` are made-up numbers (never polled here).
    final class Scripted: EdgeSource {
        let lineCount: Int
        var levels: [Level]
        var due: [LineEdge]
        var losses: [(line: Int, count: Int?)] = []
        var availability: [ChipAvailability] = []
        var descriptors: [FileDescriptor]
        var readFrom: [Int] = []
        var lost: [Int?]
        /// Which of `descriptors` are rarely ready (a chip watch).
        var rarelyReady: Set<Int> = []

        init(levels: [Level], due: [LineEdge] = [], descriptors: [Int32] = [], lost: [Int?]? = nil) {
            lineCount = levels.count
            self.levels = levels
            self.due = due
            self.descriptors = descriptors.map(FileDescriptor.init(rawValue:))
            self.lost = lost ?? Array(repeating: nil, count: levels.count)
        }

        var nextDueNs: Int64? { due.first?.edge.timeNs }
        var isExhausted: Bool { due.isEmpty }
        func readLevel(line: Int) throws(LineError) -> Level { levels[line] }
        func lostEvents(line: Int) -> Int? { lost[line] }
        func isRarelyReady(descriptor: Int) -> Bool { rarelyReady.contains(descriptor) }

        func deliverDue(byNs timeNs: Int64, into batch: inout EdgeBatch) throws(LineError) {
            while let next = due.first, next.edge.timeNs <= timeNs {
                batch.edges.append(next)
                due.removeFirst()
            }
            batch.losses += losses
            batch.availability += availability
            (losses, availability) = ([], [])
        }

        func readReady(descriptor: Int, events: PollEvents, into batch: inout EdgeBatch) throws(LineError) {
            readFrom.append(descriptor)
            try deliverDue(byNs: .max, into: &batch)
        }
    }

    static func edge(_ line: Int, _ level: Level, _ timeNs: Int64) -> LineEdge { LineEdge(line: line, edge: Edge(level: level, timeNs: timeNs)) }

    /// Each source says which of its own descriptors are rarely ready, by its own index.
    @Test func eachSourceSaysWhichOfItsDescriptorsAreRarelyReady() {
        let pins = Scripted(levels: [.high, .high], descriptors: [10, 11, 12])
        pins.rarelyReady = [2]
        let keys = Scripted(levels: [.high], descriptors: [20, 21])
        keys.rarelyReady = [0]
        let both = CompositeEdgeSource([pins, keys])
        #expect((0..<5).map { both.isRarelyReady(descriptor: $0) } == [false, false, true, true, false])
    }

    @Test func theSecondSourcesLinesFollowTheFirsts() throws {
        let pins = Scripted(levels: [.high, .low], due: [Self.edge(1, .high, 20)], lost: [3, nil])
        let keys = Scripted(levels: [.low, .high, .high], due: [Self.edge(0, .high, 10), Self.edge(2, .low, 30)], lost: [nil, nil, 7])
        keys.losses = [(line: 1, count: 2)]
        keys.availability = [ChipAvailability(chip: "gpiochip5", lines: [0, 2], isAvailable: false)]
        let both = CompositeEdgeSource([pins, keys])
        #expect(both.lineCount == 5)
        #expect(try (0..<5).map { try both.readLevel(line: $0) } == [.high, .low, .low, .high, .high])
        #expect((0..<5).map(both.lostEvents) == [3, nil, nil, nil, 7])
        #expect(both.nextDueNs == 10)
        var batch = EdgeBatch()
        try both.deliverDue(byNs: 25, into: &batch)
        #expect(batch.edges == [Self.edge(1, .high, 20), Self.edge(2, .high, 10)])
        #expect(batch.losses.map(\.line) == [3] && batch.losses.map(\.count) == [2])
        #expect(batch.availability == [ChipAvailability(chip: "gpiochip5", lines: [2, 4], isAvailable: false)])
        batch.removeAll()
        #expect(batch.edges.isEmpty && batch.losses.isEmpty && batch.availability.isEmpty)
        try both.deliverDue(byNs: 30, into: &batch)
        #expect(batch.edges == [Self.edge(4, .low, 30)])
        #expect(batch.losses.isEmpty && batch.availability.isEmpty)
        #expect(both.isExhausted && both.nextDueNs == nil)
    }

    /// A ready descriptor goes to the source it belongs to, numbered as that source numbers it; a
    /// source whose descriptors change (a chip gone) is seen after its read.
    @Test func eachDescriptorIsReadByItsOwnSource() throws {
        let pins = Scripted(levels: [.high], descriptors: [40, 41])
        let keys = Scripted(levels: [.high, .high], due: [Self.edge(1, .low, 5)], descriptors: [50])
        let both = CompositeEdgeSource([pins, keys])
        #expect(both.descriptors.map(\.rawValue) == [40, 41, 50])
        var batch = EdgeBatch()
        try both.readReady(descriptor: 1, events: PollEvents(rawValue: 1), into: &batch)
        try both.readReady(descriptor: 2, events: PollEvents(rawValue: 1), into: &batch)
        #expect(pins.readFrom == [1] && keys.readFrom == [0])
        #expect(batch.edges == [Self.edge(2, .low, 5)])
        pins.descriptors = []
        try both.readReady(descriptor: 0, events: PollEvents(rawValue: 1), into: &batch)
        #expect(both.descriptors.map(\.rawValue) == [50])
        try both.readReady(descriptor: 0, events: PollEvents(rawValue: 1), into: &batch)
        #expect(keys.readFrom == [0, 0])
    }

    @Test func aLinesErrorSaysWhatToDo() {
        #expect(LineError.chipVanished(chip: "gpiochip5").description == "gpiochip5 vanished while being watched (unplugged, or its driver was unloaded); plug it back in and start again")
        #expect(LineError.system(operation: "read", errno: .badFileDescriptor).description.hasPrefix("read failed: Bad file descriptor (errno 9)"))
    }
}
