import ArgumentParser

/// One kind's demo (`demo --encoder`): its flag and how it plays a simulated input of the kind in
/// real time (or virtual), with what it takes of `demo`'s options (`--presses`, `--seed`, the output;
/// the encoder's `--drop` too). `DemoModes` lists them;
/// without one chosen, `demo` presses a simulated button.
protocol DemoMode: ParsableArguments {
    /// Its flag, as messages and the usage line write it: `--encoder`.
    static var flag: String { get }
    /// Whether its flag was given.
    var isChosen: Bool { get }
    /// Plays the demo until its input's script ends or a signal stops it.
    func demo(with demo: DemoCommand) throws
}
