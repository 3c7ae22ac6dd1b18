import SystemPackage

extension EventWriter {
    /// Writes an entered code (`PipelineOutput.code`) as one line: its length and time, never the code
    /// itself (a secret: events go to logs). JSON: `{"event":"code","length":4,"time_ns":…,"keypad":"door"}`.
    package func write(codeLength length: Int, timeNs: Int64, fields: EventFields = .none) throws(Errno) {
        switch format {
        case .json:
            output.appendUTF8("{\"event\":\"code\",\"length\":\(length),\"time_ns\":\(timeNs)")
            output.append(fields.json)
            output.append("}")
        case .text:
            output.appendUTF8("code   length=\(length) time=")
            output.appendUTF8(Self.seconds(timeNs))
            output.append(fields.text)
        }
        try output.endLine()
    }
}
