import EventOutput
import InputModel

extension EventPrinter {
    /// A printer of `inputs`' events on a run of `lineCount` lines, each input's lines and own events
    /// followed by the fields its kind prints (`InputPresenter.printed`), its contacts and meters printed
    /// as such; a line no input prints fields for has none. `restored`: the inputs (`OutputSource.input`)
    /// that start from the value the state directory kept, each printing it at the start. An input whose kind prints its own events
    /// (`InputPresenter.printsOwnEvents`) is asked for them.
    package convenience init(writer: EventWriter, inputs: [any InputPresenter], lineCount: Int, restored: Set<Int> = []) {
        var lineFields = Array(repeating: EventFields.none, count: lineCount)
        var inputFields: [Int: EventFields] = [:]
        var contactLines: Set<Int> = []
        var perUnit: [Int: Double] = [:]
        var rateUnits: [Int: String] = [:]
        var ownPrinters: [Int: any InputPresenter] = [:]
        for input in inputs {
            if input.printsOwnEvents { ownPrinters[input.description.input] = input }
            let printed = input.printed
            for (line, fields) in printed.lines where lineFields.indices.contains(line) { lineFields[line] = fields }
            if let fields = printed.input { inputFields[input.description.input] = fields }
            contactLines.formUnion(printed.contactLines)
            for meter in printed.meters {
                perUnit[meter.line] = meter.perUnit
                rateUnits[meter.line] = meter.rateUnit
            }
        }
        self.init(
            writer: writer, lineFields: lineFields, inputFields: inputFields, contactLines: contactLines, perUnit: perUnit, rateUnits: rateUnits,
            restored: inputs.filter { restored.contains($0.description.input) }.sorted { $0.description.input < $1.description.input },
            ownPrinters: ownPrinters)
    }
}
