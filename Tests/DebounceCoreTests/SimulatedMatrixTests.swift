import DebounceCore
import Simulation
import Testing

/// The physics the scanner's properties run against: contacts over time, diodes and ghost paths.
@Suite struct SimulatedMatrixTests {
    /// A 3×3 matrix with the keys in `closed` closed from 1 ms on.
    static func matrix(diodes: Bool, closed: [Int]) -> SimulatedMatrix {
        SimulatedMatrix(
            configuration: MatrixConfiguration(rows: 3, columns: 3, diodes: diodes),
            keyEdges: (0..<9).map { closed.contains($0) ? [Edge(level: .low, timeNs: 1_000_000)] : [] })
    }

    @Test func withDiodesAColumnReadsOnlyItsOwnClosedKeys() {
        // (0,0), (0,1), (1,1): three corners of rows 0-1 × columns 0-1.
        let matrix = Self.matrix(diodes: true, closed: [0, 1, 4])
        #expect(matrix.rowsDown(drive: .column(0), atNs: 2_000_000) == 0b001)
        #expect(matrix.rowsDown(drive: .column(1), atNs: 2_000_000) == 0b011)
        #expect(matrix.rowsDown(drive: .column(2), atNs: 2_000_000) == 0)
        #expect(matrix.rowsDown(drive: .all, atNs: 2_000_000) == 0b011)
    }

    @Test func withoutDiodesUndrivenColumnsConductTheGhostPath() {
        let matrix = Self.matrix(diodes: false, closed: [0, 1, 4])
        // Column 0 → (0,0) → row 0 → (0,1) → column 1 → (1,1) → row 1: the ghost (1,0).
        #expect(matrix.rowsDown(drive: .column(0), atNs: 2_000_000) == 0b011)
        #expect(matrix.rowsDown(drive: .column(1), atNs: 2_000_000) == 0b011)
        #expect(matrix.rowsDown(drive: .column(2), atNs: 2_000_000) == 0)
        // Longer paths: (1,2) and (2,2) reach row 2 from column 0 through rows 0, 1 and column 2.
        let chain = Self.matrix(diodes: false, closed: [0, 1, 4, 5, 8])
        #expect(chain.rowsDown(drive: .column(0), atNs: 2_000_000) == 0b111)
    }

    @Test func contactsFollowTheirEdges() {
        let matrix = SimulatedMatrix(
            configuration: MatrixConfiguration(rows: 1, columns: 2),
            keyEdges: [
                [Edge(level: .low, timeNs: 10), Edge(level: .high, timeNs: 20), Edge(level: .low, timeNs: 30)],
                [Edge(level: .low, timeNs: 15)],
            ])
        #expect(matrix.rowsDown(drive: .column(0), atNs: 9) == 0)
        #expect(matrix.rowsDown(drive: .column(0), atNs: 10) == 1)
        #expect(matrix.rowsDown(drive: .column(0), atNs: 25) == 0)
        #expect(matrix.rowsDown(drive: .column(0), atNs: 30) == 1)
        #expect(matrix.nextChangeNs(after: 0) == 10)
        #expect(matrix.nextChangeNs(after: 10) == 15)
        #expect(matrix.nextChangeNs(after: 20) == 30)
        #expect(matrix.nextChangeNs(after: 30) == nil)
    }
}
