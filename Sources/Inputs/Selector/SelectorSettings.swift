import ConfigurationFile
import DebounceCore
import Settings
import YAMLDocument

/// One selector switch of a configuration (`selectors:`): a rotary selector with a line per position,
/// a binary, Gray or BCD coded switch, or a bank of DIP switches, read as one value once its lines
/// have held still for the settle time.
package struct SelectorSettings: Sendable, Equatable {
    package var name: String
    /// Its lines, in `lines:` order (line i is bit i of a reading; for `one_hot`, position i + 1), on
    /// one chip with one bias and no kernel debouncing (the decoder's settle time outlasts the bounce).
    package var lines: [LineSettings]
    /// The level that reads active on its lines (`active:`, low by default: a switch to ground with pull-ups).
    package var activeLevel: ActiveLevel
    /// How its lines make a value, how long a reading must hold, and its highest valid value.
    package var configuration: SelectorConfiguration
    /// The names of its positions (`positions:`), the first for the lowest value (`one_hot`: 1;
    /// coded: 0); empty: positions are known by their numbers.
    package var positions: [String]
    /// Commands its readings run (`actions:` with `on: select` or `on: invalid`).
    package var actions: [SelectorActionConfiguration] = []

    /// The lowest value its code makes: 1 for `one_hot`, 0 for the others.
    package var lowestValue: Int { configuration.code == .oneHot ? 1 : 0 }

    /// The name of position `value`: its `positions:` name, or the number itself.
    package func positionName(_ value: Int) -> String {
        let index = value - lowestValue
        return positions.indices.contains(index) ? positions[index] : String(value)
    }
}

extension SelectorConfiguration {
    /// How many values its lines make one after another from `lowest` up, counted to at most `limit`:
    /// each a reading whose lines read back as it (a coded switch on many lines makes millions).
    func valueCount(from lowest: Int, atMost limit: Int) -> Int {
        var count = 0
        while count < limit, let lines = code.activeLines(forValue: lowest + count, lineCount: lineCount), value(ofActiveLines: lines) == lowest + count {
            count += 1
        }
        return count
    }
}

/// What starts a selector's action: a valid reading that held (`select`), or an invalid one (`invalid`).
package enum SelectorTrigger: String, Sendable, Hashable, CaseIterable {
    case select, invalid
}

/// A command a selector's readings run: `on: select` or `on: invalid`.
package struct SelectorActionConfiguration: Sendable, Equatable {
    package var on: SelectorTrigger
    package var action: Action
}

extension SelectorSettings: InputSettings {
    package static var kind: InputKindID { .selector }
    /// Its lines, each in its place (`line 1`, `line 2`, ...).
    package var watchedLines: [(role: Roster.Role, settings: LineSettings?)] {
        lines.enumerated().map { (.selectorLine($0.offset), $0.element) }
    }
    package static var sectionExample: String { "`- name: mode` entries with `lines: [GPIO5, GPIO6, GPIO13]`" }
    package static var example: String { "`selectors: [{name: mode, lines: [5, 6, 13]}]`" }

    /// Each line as an item of its `lines:`.
    package static func place(ofPin pin: Int, in fields: [String: YAMLNode], key: String) -> (node: YAMLNode, key: String)? {
        guard case .sequence(let lines)? = fields["lines"], lines.indices.contains(pin) else { return nil }
        return (lines[pin], "\(key).lines[\(pin)]")
    }
    package static var maximumEntries: Int { ConfigurationReader.maximumSelectors }

    package static func read(_ node: YAMLNode, key: String, index: Int, context: ConfigurationReader.Context) throws(ConfigurationError) -> Self {
        try context.reader.readSelector(node, key: key, index: index, defaults: context.defaults)
    }
}

extension InputKindID {
    /// A selector switch (`selectors:`).
    package static let selector = InputKindID("selector")
}

extension Roster.Role {
    /// A selector's line `index` (0 the first in `lines:`), named from 1: `line 1`.
    package static func selectorLine(_ index: Int) -> Roster.Role { Roster.Role("line \(index + 1)") }
}
