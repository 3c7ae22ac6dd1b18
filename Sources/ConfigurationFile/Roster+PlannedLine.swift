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

    /// What a line is to its input: the part it plays, by the name its label adds to its input's
    /// (`volume (A)`); "" for an input's one line. Each kind names its parts beside its settings
    /// (`Roster.Role.key(row:column:)`).
    package struct Role: Sendable, Hashable, CustomStringConvertible {
        /// The part's name: `A`, `reset`, `key 2,3`; "" for an input's one line.
        package let name: String

        package init(_ name: String) { self.name = name }

        /// The one line of an input of one line (a button's).
        package static let single = Role("")

        /// What a line's label adds to its input's name: ` (A)`; nothing for `single`.
        var suffix: String { name.isEmpty ? "" : " (\(name))" }

        package var description: String { name.isEmpty ? "single" : name }
    }
}
