import EventSocket
import FuzzSupport

/// A request line to the events socket: `EventSocketRequest.parse` gives a request or a refusal with a
/// message the client can act on, never a crash or a hang, for any bytes up to the line bound. A
/// subscription names at least one input or event in a list it gives, never an empty name, and written
/// back as JSON (`JSONText.quoted`, as a client writes it) it reads back the same.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let line = Fuzz.text(data, size)
    let request: EventSocketRequest
    do {
        request = try EventSocketRequest.parse(line)
    } catch {
        Fuzz.require(!error.message.isEmpty, "a refusal without a message")
        return 0
    }
    guard case .subscribe(let inputs, let events) = request else { return 0 }
    for names in [inputs, events].compactMap({ $0 }) {
        Fuzz.require(!names.isEmpty, "an empty list accepted: '\(line)'")
        Fuzz.require(!names.contains(""), "an empty name accepted: '\(line)'")
    }
    // Names a JSON writer leaves unescaped and YAML forbids raw (C1 controls, the BOM, non-characters)
    // are the client's to escape; the rest must come back as they went.
    let writable = [inputs, events].compactMap { $0 }.joined().allSatisfy { name in
        name.unicodeScalars.allSatisfy { !(0x7F...0x9F).contains($0.value) && $0.value != 0xFEFF && $0.value < 0xFFFE }
    }
    guard writable else { return 0 }
    let written = request.line
    Fuzz.require((try? EventSocketRequest.parse(written)) == request, "'\(line)' does not read back as '\(written)'")
    return 0
}
