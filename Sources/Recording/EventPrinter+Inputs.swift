import EventOutput
import InputModel

extension EventPrinter {
    /// A printer of `inputs`' events on a run of `lineCount` lines: each input's lines' events followed
    /// by the fields its kind prints (`InputPresenter.printed`), its other outputs written by its kind's
    /// printer (`InputPresenter.printer`); a line no input prints fields for has none. `restored`: the
    /// inputs (`OutputSource.input`) that start from the value the state directory kept, each printing
    /// it at the start.
    package convenience init(writer: EventWriter, inputs: [any InputPresenter], lineCount: Int, restored: Set<Int> = []) {
        var lineFields = Array(repeating: EventFields.none, count: lineCount)
        var inputFields: [Int: EventFields] = [:]
        var printers: [Int: any InputPrinter] = [:]
        for input in inputs {
            let printed = input.printed
            for (line, fields) in printed.lines where lineFields.indices.contains(line) { lineFields[line] = fields }
            if let fields = printed.input { inputFields[input.description.input] = fields }
            if let printer = input.printer { printers[input.description.input] = printer }
        }
        self.init(
            writer: writer, lineFields: lineFields, inputFields: inputFields,
            restored: inputs.filter { restored.contains($0.description.input) }.sorted { $0.description.input < $1.description.input },
            printers: printers)
    }
}
