import ArgumentParser

/// `--simulate`, `--seed`, `--presses` and the hidden `--virtual-time`: a command's run on simulated
/// lines instead of real pins. One group for the commands that have all four (`run`, `record`), each
/// with its own words (`Help`), so that their help reads as the command's.
struct SimulationOptions<Help: SimulationHelp>: ParsableArguments {
    @Flag(help: Help.simulate)
    var simulate = false

    @Option(help: Help.seed)
    var seed: UInt64 = 1

    @Option(help: Help.presses, transform: Help.fewestPresses == 0 ? CountArgument.parseFromZero : CountArgument.parse)
    var presses: Int?

    /// In virtual time: no waiting, the whole simulation at once (for tests; hidden).
    @Flag(help: .hidden)
    var virtualTime = false
}

/// What a command's `SimulationOptions` say in its help, and the fewest presses it takes.
protocol SimulationHelp {
    static var simulate: ArgumentHelp { get }
    static var seed: ArgumentHelp { get }
    static var presses: ArgumentHelp { get }
    /// 0 when the command can start and stop with nothing simulated, else 1.
    static var fewestPresses: Int { get }
}
