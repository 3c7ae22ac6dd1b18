/// Why a client's bytes are not frames of the connection's framing. The connection is closed, after
/// `APIFrameWriter.badIndicatorReply` for a wrong first byte, as ESPHome does.
public enum APIFrameError: Error, Equatable, Sendable {
    /// A frame began with `byte`, not the indicator of the framing the connection speaks (`expected`).
    case badIndicator(UInt8, expected: APIFraming)
    /// A frame whose payload or body is `size` bytes, more than the reader's `limit`.
    case tooLarge(size: Int, limit: Int)
    /// A size or a type whose varint goes on past `APIFrameReader.maximumVarintBytes` bytes.
    case overlongVarint
    /// A message type over 65,535 (ESPHome's types are 16 bits).
    case typeOutOfRange(UInt32)

    /// What went wrong and what the client's owner can do, for the log.
    public var message: String {
        switch self {
        case .badIndicator(let byte, expected: .plaintext) where byte == APIFraming.noise.indicator:
            "the client encrypts and this API does not: remove the encryption key from the client, or give the API one"
        case .badIndicator(let byte, expected: .noise) where byte == APIFraming.plaintext.indicator:
            "the client does not encrypt and this API does: give the client the API's encryption key"
        case .badIndicator(let byte, _):
            "a frame began with byte \(byte), which no ESPHome API client sends: is it an ESPHome API client?"
        case .tooLarge(let size, let limit):
            "a frame of \(size) bytes, over the \(limit) this API takes"
        case .overlongVarint:
            "a frame's size or type runs over \(APIFrameReader.maximumVarintBytes) bytes"
        case .typeOutOfRange(let type):
            "a message of type \(type), over the largest (65535)"
        }
    }
}
