/// Writes frames of the ESPHome native API as ESPHome's frame helpers do.
public enum APIFrameWriter {
    /// Appends a plaintext frame to `bytes`: `0x00`, the payload's size and `type` as varints, the
    /// payload (`api_frame_helper_plaintext.cpp`'s `write_plaintext_header`).
    public static func appendMessage(type: UInt16, payload: some Collection<UInt8>, to bytes: inout [UInt8]) {
        bytes.append(APIFraming.plaintext.indicator)
        Varint.append(UInt32(payload.count), to: &bytes)
        Varint.append(UInt32(type), to: &bytes)
        bytes.append(contentsOf: payload)
    }

    /// Appends a Noise frame to `bytes`: `0x01`, the body's size in 2 bytes (big-endian), the body.
    /// Throws, appending nothing, for a body over 65,535 bytes, which the size cannot say.
    public static func appendNoise(body: some Collection<UInt8>, to bytes: inout [UInt8]) throws(APIFrameError) {
        guard let size = UInt16(exactly: body.count) else { throw .tooLarge(size: body.count, limit: Int(UInt16.max)) }
        bytes.append(APIFraming.noise.indicator)
        bytes.append(UInt8(size >> 8))
        bytes.append(UInt8(truncatingIfNeeded: size))
        bytes.append(contentsOf: body)
    }

    /// What ESPHome writes before closing a connection whose frame began with the wrong byte: "Bad
    /// indicator byte", in the connection's own framing, which is how the client learns which framing
    /// the device speaks. Plaintext: `0x00` and the 18 bytes of text (the text standing where a header
    /// would be, so that a client reads at least 3 bytes); Noise: a frame whose body is `0x01` (a
    /// rejection) and the text.
    package static func badIndicatorReply(_ framing: APIFraming) -> [UInt8] {
        let text = Array("Bad indicator byte".utf8)
        switch framing {
        case .plaintext:
            return [APIFraming.plaintext.indicator] + text
        case .noise:
            var bytes: [UInt8] = []
            try? appendNoise(body: [0x01] + text, to: &bytes)  // 19 bytes: never too large
            return bytes
        }
    }
}
