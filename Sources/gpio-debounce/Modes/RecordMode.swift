import ArgumentParser
import Simulation

/// One kind's recording of several lines (`record --encoder A,B`): its option, its lines and what
/// the recording calls them, and its simulated input. `RecordModes` lists them; without one chosen,
/// `record` records one line.
protocol RecordMode: ParsableArguments {
    /// Its option with its value's name, as its messages write it: `--encoder A,B`.
    static var option: String { get }
    /// What `record --help` says of it.
    static var help: String { get }
    /// What `--simulate` records with its option, for the help: `with --encoder a simulated encoder`.
    static var simulated: String { get }
    /// Whether its option was given.
    var isChosen: Bool { get }
    /// Its lines, as given (offsets or names).
    func lineNames() throws -> [String]
    /// What the trace calls its lines (VCD's channels): `A`, `B`.
    var signals: [String] { get }
    /// Its simulated lines with `seed`, used `presses` times (nil: until stopped), and what the
    /// recording calls them.
    func simulatedLines(seed: UInt64, presses: Int?) -> (SimulatedLines, name: String)
    /// Refuses what it cannot record with `record`'s other options.
    func validate(with record: RecordCommand) throws
}
