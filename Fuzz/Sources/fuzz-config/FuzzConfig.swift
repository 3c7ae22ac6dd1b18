import ConfigurationFile
import DebounceCore
import FuzzSupport
import Inputs

/// The daemon's configuration: `ConfigurationLoader.load(_:file:)` (YAML through libyaml, every kind of input) on the input as
/// text, and `load(bytes:file:)` on its bytes, give a configuration or a `ConfigurationError` with a
/// message (programs are not looked up: no file system). Valid UTF-8 gives the same answer both ways.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let fromText = outcome { () throws(ConfigurationError) in try ConfigurationLoader.load(Fuzz.text(data, size), file: "fuzz.yaml") }
    let fromBytes = outcome { () throws(ConfigurationError) in try ConfigurationLoader.load(bytes: bytes, file: "fuzz.yaml") }
    if String(validating: bytes, as: UTF8.self) != nil {
        Fuzz.require(fromText == fromBytes, "text and bytes differ: \(fromText) / \(fromBytes)")
    }
    return 0
}

/// A configuration's input counts (buttons, encoders, sensors, counters), or the error's message.
func outcome(_ load: () throws(ConfigurationError) -> ServiceConfiguration) -> String {
    do {
        let configuration = try load()
        let counts = configuration.inputCounts
        Fuzz.require(counts.contains { $0 > 0 }, "a configuration without inputs")
        return "\(counts) inputs"
    } catch {
        Fuzz.require(!error.description.isEmpty, "an error without a message")
        return error.description
    }
}
