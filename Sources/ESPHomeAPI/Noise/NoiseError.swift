/// What fails in a Noise handshake or in the messages after it.
public enum NoiseError: Error, Equatable, Sendable {
    /// A message's tag does not match: in the handshake, the client's key is not the device's.
    case authentication
    /// A handshake message of the wrong size (`size` bytes).
    case badHandshakeMessage(size: Int)
    /// The peer's ephemeral key is not a Curve25519 public key.
    case badPublicKey
    /// The cipher refused to work (it does not for keys and nonces of the right size).
    case cipher
    /// 2⁶⁴ − 1 messages went one way: the connection must end.
    case nonceExhausted
}
