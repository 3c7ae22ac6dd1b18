/// A line's identity in a run: its index in the run's line order (the index the loop, the pipeline's
/// plans and outputs, and the sinks' tables call `line`). Only a `Roster` makes one.
package struct LineID: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The line's index in the run's line order.
    package let index: Int

    init(index: Int) { self.index = index }

    package static func < (left: LineID, right: LineID) -> Bool { left.index < right.index }
    package var description: String { "line #\(index)" }
}

extension Roster {
    /// One line of a run: its identity, where it is, and which input it serves.
    package struct PlannedLine: Sendable {
        package let id: LineID
        /// Its chip, line, bias and kernel debouncing, as configured; nil for a keypad's key, which its
        /// keypad's scan reports (no pin of its own).
        package var settings: LineSettings?
        /// The input it serves, and how.
        package var owner: Owner
    }

    /// The input a line serves (an index into `Roster.inputs`) and its role in it.
    package struct Owner: Sendable, Hashable {
        package var input: Int
        package var role: Role

        package init(input: Int, role: Role) {
            self.input = input
            self.role = role
        }
    }

    /// What a line is to its input.
    package enum Role: Sendable, Hashable {
        /// The one line of a button, a sensor or a counter.
        case single
        /// An encoder's line A (clockwise, A leads).
        case encoderA
        /// An encoder's line B.
        case encoderB
        /// An encoder's reset button (`reset_line:`).
        case encoderReset
        /// A keypad's key, at `row` and `column` of its matrix (from 0).
        case key(row: Int, column: Int)

        /// What a line's label adds to its input's name: ` (A)`, ` (B)` and ` (reset)` for an encoder's.
        var suffix: String {
            switch self {
            case .single: ""
            case .encoderA: " (A)"
            case .encoderB: " (B)"
            case .encoderReset: " (reset)"
            case .key(let row, let column): " (key \(row + 1),\(column + 1))"
            }
        }
    }
}
