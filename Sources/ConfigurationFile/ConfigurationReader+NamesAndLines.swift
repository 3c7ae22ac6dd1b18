import YAMLDocument

extension ConfigurationReader {
    /// Refuses two inputs with one name, and two inputs on one line as written (`LineKey`: a pin written
    /// two ways is refused later, on the machine, by `MachineCheck`), in one pass over `roster` in the
    /// run's order: each input against those before it, a line where its kind says it is written
    /// (`InputSettings.place(ofPin:in:key:)`).
    func checkNamesAndLines(_ roster: Roster, top: [String: YAMLNode], root: YAMLNode) throws(ConfigurationError) {
        /// Each name and line so far → the input that has it (an index into `roster.inputs`).
        var names: [String: Int] = [:]
        var lines: [LineKey: Int] = [:]
        /// Each input's key (`buttons[0]`), and whether its name was written (or made up).
        var keys: [String] = []
        var nameWritten: [Bool] = []
        var counts: [String: Int] = [:]
        /// Input `index` as messages name it: `button 'door' (buttons[0])`.
        func described(_ index: Int) -> String {
            "\(roster.inputs[index].kind.noun) \(ConfigurationLoader.quoted(roster.inputs[index].name)) (\(keys[index]))"
        }
        for (index, input) in roster.inputs.enumerated() {
            let section = input.kind.section
            let position = counts[section, default: 0]
            counts[section] = position + 1
            let key = "\(section)[\(position)]"
            keys.append(key)
            let node: YAMLNode
            if case .sequence(let list)? = top[section], list.indices.contains(position) { node = list[position] } else { node = top[section] ?? root }
            let fields = (try? reader.mapping(node, key: key, allowed: nil)) ?? [:]
            let name = ConfigurationLoader.quoted(input.name)
            nameWritten.append(fields["name"] != nil)
            if let earlier = names[input.name] {
                let how = nameWritten[earlier] ? "" : ", which has no `name:` and is called so"
                let howNow = fields["name"] == nil ? " (this \(input.kind.noun) has no `name:` and would be called \(name))" : ""
                throw reader.error(fields["name"] ?? node, "\(key).name", "the name \(name) is already that of \(described(earlier))\(how)\(howNow): give each input its own")
            }
            names[input.name] = index
            for (pin, settings) in roster.pins(of: index).map(\.settings).enumerated() {
                let lineKey = LineKey(chip: settings.chip, line: settings.line)
                if let earlier = lines[lineKey] {
                    let place = type(of: input.settings).place(ofPin: pin, in: fields, key: key)
                    let which = roster.pins(of: earlier).count == 1 ? "the line" : "a line"
                    throw reader.error(
                        place?.node ?? node, place?.key ?? key,
                        "\(lineKey.description) is already \(which) of \(described(earlier)): one line serves one input; give one of them another line or chip")
                }
                lines[lineKey] = index
            }
        }
    }
}
