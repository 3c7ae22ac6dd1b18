import YAMLDocument

/// What every input's entry has, whatever its kind: its name, and its line with the line's settings
/// (`line:`, `chip:`, `bias:`, `kernel_debounce:`), each of the settings from `defaults:` where the
/// entry does not write it. One reader for every kind.
extension ConfigurationReader {
    /// The entry's `name:`, or, when none is written, its kind and number (`button1`, `encoder2`);
    /// `noun` is the kind as messages write it (`button`, `encoder`).
    package func inputName(_ fields: [String: YAMLNode], key: String, noun: String, index: Int) throws(ConfigurationError) -> String {
        guard let node = fields["name"] else { return "\(noun)\(index + 1)" }
        let article = noun.first.map { "aeiou".contains($0) } == true ? "an" : "a"
        return try reader.name(node, key: "\(key).name", what: "\(article) \(noun)'s name")
    }

    /// The settings of an entry with one line (as a button's): its `line:` (a missing
    /// one is refused with `noun` and the offset `example` in the message), then
    /// `lineSettings(line:fields:key:defaults:)`.
    package func lineSettings(
        _ fields: [String: YAMLNode], node: YAMLNode, key: String, noun: String, example: Int, defaults: Defaults
    ) throws(ConfigurationError) -> LineSettings {
        guard let lineNode = fields["line"] else { throw reader.error(node, key, "a \(noun) needs `line:` (an offset like \(example), or a name like GPIO\(example))") }
        let line = try reader.line(lineNode, key: "\(key).line")
        return try lineSettings(line: line, fields: fields, key: key, defaults: defaults)
    }

    /// Line `line` (as `NodeReader.line` read it) with the entry's `chip:`, `bias:` (pull-up when
    /// neither the entry nor `defaults:` gives one) and, `withKernelDebounce`, its `kernel_debounce:`
    /// (else none: an encoder's decoder takes every change itself).
    package func lineSettings(
        line: String, fields: [String: YAMLNode], key: String, defaults: Defaults, withKernelDebounce: Bool = true
    ) throws(ConfigurationError) -> LineSettings {
        let chip = try fields["chip"].map { node throws(ConfigurationError) in try reader.chip(node, key: "\(key).chip") } ?? defaults.chip
        let bias = try fields["bias"].map { node throws(ConfigurationError) in try reader.bias(node, key: "\(key).bias") } ?? defaults.bias ?? .pullUp
        guard withKernelDebounce else { return LineSettings(chip: chip, line: line, bias: bias) }
        let kernelDebounceNs = try fields["kernel_debounce"].map { node throws(ConfigurationError) in
            try reader.kernelDebounce(node, key: "\(key).kernel_debounce")
        } ?? defaults.kernelDebounceNs ?? 0
        return LineSettings(chip: chip, line: line, bias: bias, kernelDebounceNs: kernelDebounceNs)
    }
}
