import ConfigurationFile

/// Where `check` says an input's lines are: as found on the machine that checks (chip and offset), or
/// as the configuration names them where they were not resolved there. Made by the daemon's check.
package protocol CheckedPlaces {
    /// Where run line `id` is: `gpiochip0 line 17`, `gpiochip0 line GPIO17 (offset 17)`.
    func place(of id: LineID) -> String
    /// Where run line `id` was found on this machine: its chip's name and offset; nil when the lines
    /// were not resolved here.
    func found(_ id: LineID) -> (chip: String, offset: Int)?
    /// The chip and the line of the `index`-th of the roster's pins (`Roster.pins`), `settings` its
    /// settings, apart: a keypad names its chip once for all its pins.
    func pin(_ index: Int, _ settings: LineSettings) -> (chip: String, line: String)
}
