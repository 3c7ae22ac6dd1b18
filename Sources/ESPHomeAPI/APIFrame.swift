/// One frame read from a connection of the ESPHome native API, before anything in it is decrypted or
/// decoded (`APIFrameReader`).
public enum APIFrame: Equatable, Sendable {
    /// A plaintext frame: the message's type (its `option (id)` in ESPHome's `api.proto`, e.g. 7 for
    /// a ping) and its payload, the message encoded as protocol buffers.
    case message(type: UInt16, payload: [UInt8])
    /// A Noise frame's body: a handshake message, or an encrypted message with its 16-byte tag.
    case noise(body: [UInt8])
}
