import ArgumentParser
import LinuxSys

/// `--simulate`, `--seed`, `--presses` and the hidden `--virtual-time`: a command's run on simulated
/// lines instead of real pins, for every command that has them (`run`, `record`, `watch`), each with
/// its own words and defaults (`Help`), so that their help reads as the command's.
struct SimulationOptions<Help: SimulationHelp>: ParsableArguments {
    @Flag(help: Help.simulate)
    var simulate = false

    @Option(help: Help.seed)
    var seed: UInt64?

    @Option(help: Help.presses, transform: Help.fewestPresses == 0 ? CountArgument.parseFromZero : CountArgument.parse)
    var presses: Int?

    /// In virtual time: no waiting, the whole simulation at once (for tests; hidden).
    @Flag(help: .hidden)
    var virtualTime = false

    /// The simulation's seed: `--seed`, else the command's default, else a new one from the clock
    /// (a different simulation each run).
    func chosenSeed() -> UInt64 {
        seed ?? Help.defaultSeed ?? UInt64(truncatingIfNeeded: MonotonicClock.nowNs)
    }
}

/// What a command's `SimulationOptions` say in its help, and their defaults.
protocol SimulationHelp {
    static var simulate: ArgumentHelp { get }
    /// `--seed`'s help, which names the default seed if there is one.
    static var seed: ArgumentHelp { get }
    static var presses: ArgumentHelp { get }
    /// The seed without `--seed`; `nil`: a new one each run.
    static var defaultSeed: UInt64? { get }
    /// 0 when the command can start and stop with nothing simulated, else 1.
    static var fewestPresses: Int { get }
}
