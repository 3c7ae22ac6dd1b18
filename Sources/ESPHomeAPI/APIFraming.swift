/// How a connection of the ESPHome native API frames its messages. The device's configuration decides
/// it, and one port speaks one framing, as ESPHome's does (`APIConnection` picks its frame helper from
/// whether a key is set).
public enum APIFraming: UInt8, Sendable {
    /// `0x00`, the payload's size and the message's type as varints, the payload: no encryption.
    case plaintext = 0x00
    /// `0x01`, the body's size (2 bytes, big-endian), the body: the Noise handshake's messages, then
    /// encrypted messages.
    case noise = 0x01

    /// The first byte of each of its frames.
    package var indicator: UInt8 { rawValue }
}
