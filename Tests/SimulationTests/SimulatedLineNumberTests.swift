import Simulation
import Testing

/// A simulated button reports the line the user named.
@Suite struct SimulatedLineNumberTests {
    @Test(arguments: [("17", 5, 17), ("0", 1, 0), ("GPIO27", 0, 27), ("GPIO4", 3, 4), ("PA7", 2, 2), ("GPIO", 1, 1), ("GPIOx", 4, 4), ("-1", 3, 3)])
    func theNamedLine(line: String, index: Int, number: Int) {
        #expect(SimulatedLineNumber.of(line, index: index) == number)
    }
}
