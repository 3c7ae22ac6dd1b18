import ESPHomeAPI
import FuzzSupport

/// What an ESPHome API client sends a device, in pieces, through the whole of a connection's reading:
/// `APISession` (the frames, and for an encrypted device the client's hello frame and the Noise
/// handshake message, checked against the device's key) and each message it gives, decoded as its type's
/// protocol buffers (`APIClientMessage.decode`, swift-protobuf's parser). Never a crash; an error has a
/// message; what a refusal sends is a Noise frame or plaintext ESPHome's way. The first byte chooses
/// the security (bit 0: Noise, under a fixed key) and the pieces' size (the rest).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard size > 0 else { return 0 }
    let control = data[0]
    let noise = control & 1 == 1
    let piece = 1 + Int(control >> 1)
    let bytes = UnsafeBufferPointer(start: data + 1, count: size - 1)
    var session = APISession(security: noise ? .noise(psk: (0..<32).map { UInt8($0) }) : .plaintext, name: "fuzz", compactMACAddress: "aabbccddeeff")
    var output: [UInt8] = []
    var offset = 0
    while offset < bytes.count {
        let end = min(offset + piece, bytes.count)
        let messages: [APIMessage]
        do {
            messages = try session.receive(bytes[offset..<end], output: &output)
        } catch {
            Fuzz.require(!error.message.isEmpty, "a session error without a message")
            Fuzz.require(error.farewell.isEmpty || error.farewell.first == (noise ? 0x01 : 0x00), "a refusal in the other framing")
            return 0
        }
        offset = end
        for message in messages {
            do {
                _ = try APIClientMessage.decode(type: message.type, payload: message.payload)
            } catch {
                Fuzz.require(!error.message.isEmpty, "a message error without a message")
            }
        }
    }
    return 0
}
