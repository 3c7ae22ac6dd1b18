import InputModel
import Settings

extension InputActionBinding {
    /// Whether an output of run line `line` that is `occasion` starts this binding's action (its input
    /// already matched): the word, the line if the binding names one, the count if it asks one.
    func matches(_ occasion: ActionOccasion, line: Int) -> Bool {
        (self.line == nil || self.line == line) && (on == occasion.on || on == occasion.alsoOn) && (count == nil || count == occasion.count)
    }
}
