import YAMLDocument

extension ConfigurationReader {
    /// Refuses two inputs with one name, and two inputs on one line as written (`LineKey`: a pin written
    /// two ways is refused later, on the machine, by `MachineCheck`), in one pass over `roster` in the
    /// run's order: each input against those before it. The messages differ by kind, as the earlier
    /// inputs do: a button's can only meet buttons, an encoder's buttons and encoders, a sensor's or a
    /// counter's any input.
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
            let name = ConfigurationLoader.quoted(input.name)
            let pins = roster.pins(of: index)
            let lineKeys = pins.map { LineKey(chip: $0.settings.chip, line: $0.settings.line) }
            switch input.kind {
            case .button:
                let fields = try reader.mapping(node, key: key, allowed: nil)
                nameWritten.append(fields["name"] != nil)
                if let earlier = names[input.name] {
                    let how = nameWritten[earlier] ? "" : " (\(keys[earlier]) has no `name:` and is called \(name))"
                    let howNow = fields["name"] == nil ? " (this button has no `name:` and would be called \(name))" : ""
                    throw reader.error(fields["name"] ?? node, "\(key).name", "the name \(name) is used twice\(how)\(howNow): give each button its own")
                }
                names[input.name] = index
                for lineKey in lineKeys {
                    if let earlier = lines[lineKey] {
                        throw reader.error(
                            fields["line"] ?? node, "\(key).line",
                            "\(lineKey.description) is already the line of \(described(earlier)): one line serves one button; put both buttons' gestures and actions on one")
                    }
                    lines[lineKey] = index
                }
            case .encoder:
                nameWritten.append(true)
                // An encoder's messages point at the list of encoders.
                let node = top[section] ?? root
                if names[input.name] != nil {
                    throw reader.error(node, "\(key).name", "the name \(name) is used twice: give each button and encoder its own")
                }
                names[input.name] = index
                for (lineKey, line) in zip(lineKeys, roster.lines(of: index)) {
                    if let earlier = lines[lineKey] {
                        let earlierInput = roster.inputs[earlier]
                        let owner = if earlierInput.kind == .button { "button \(ConfigurationLoader.quoted(earlierInput.name))" } else { "an encoder" }
                        let what = line.owner.role == Roster.Role.encoderReset ? "reset_line" : "lines"
                        throw reader.error(node, "\(key).\(what)", "\(lineKey.description) is already a line of \(owner): one line serves one button or encoder")
                    }
                    lines[lineKey] = index
                }
            default:
                let fields = (try? reader.mapping(node, key: key, allowed: nil)) ?? [:]
                nameWritten.append(fields["name"] != nil)
                if let earlier = names[input.name] {
                    let unnamed = fields["name"] == nil ? " (this \(input.kind.noun) has no `name:` and is called \(name))" : ""
                    throw reader.error(
                        fields["name"] ?? node, "\(key).name",
                        "the name \(name) is already that of \(described(earlier))\(unnamed): give each button, encoder, sensor and counter its own")
                }
                names[input.name] = index
                for (pin, lineKey) in lineKeys.enumerated() {
                    if let earlier = lines[lineKey] {
                        guard input.kind == .keypad else {
                            throw reader.error(
                                fields["line"] ?? node, "\(key).line",
                                "\(lineKey.description) is already the line of \(described(earlier)): one line serves one button, encoder, sensor or counter")
                        }
                        let (item, itemKey) = keypadLine(pin, fields: fields, key: key) ?? (node, key)
                        throw reader.error(
                            item, itemKey,
                            "\(lineKey.description) is already \(earlier == index ? "a row or column" : "the line") of \(described(earlier)): one line serves one button, encoder, sensor or counter, or one row or column of a keypad")
                    }
                    lines[lineKey] = index
                }
            }
        }
    }

    /// The `pin`-th line of a keypad entry (its rows, then its columns) as written: the list item and its key
    /// (`keypads[0].columns[1]`); nil if the entry's lists do not hold it.
    private func keypadLine(_ pin: Int, fields: [String: YAMLNode], key: String) -> (YAMLNode, String)? {
        guard case .sequence(let rows)? = fields["rows"] else { return nil }
        if pin < rows.count { return (rows[pin], "\(key).rows[\(pin)]") }
        guard case .sequence(let columns)? = fields["columns"], pin - rows.count < columns.count else { return nil }
        return (columns[pin - rows.count], "\(key).columns[\(pin - rows.count)]")
    }
}
