import ESPHomeAPI
import FuzzSupport

/// What an ESPHome API client sends, in pieces: `APIFrameReader` gives whole frames or an error with a
/// message, never a crash; it holds no more than one partial frame (the limit and a header) after its
/// frames are taken; and each frame it reads, written again by `APIFrameWriter`, reads back the same.
/// The first byte chooses the framing (bit 0), the limit (bit 1: a handshake's) and the pieces' size
/// (the rest); the others are the client's bytes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard size > 0 else { return 0 }
    let control = data[0]
    let framing: APIFraming = control & 1 == 0 ? .plaintext : .noise
    let limit = control & 2 == 0 ? APIFrameReader.messageLimit : APIFrameReader.handshakeLimit
    let piece = 1 + Int(control >> 2)
    let bytes = UnsafeBufferPointer(start: data + 1, count: size - 1)
    var reader = APIFrameReader(framing: framing, limit: limit)
    var offset = 0
    reading: while offset < bytes.count {
        let end = min(offset + piece, bytes.count)
        reader.append(contentsOf: bytes[offset..<end])
        offset = end
        while true {
            let frame: APIFrame?
            do {
                frame = try reader.next()
            } catch {
                Fuzz.require(!error.message.isEmpty, "an error without a message")
                break reading
            }
            guard let frame else { break }
            check(frame, framing: framing, limit: limit)
        }
        Fuzz.require(
            reader.pendingByteCount <= limit + 1 + 2 * APIFrameReader.maximumVarintBytes,
            "\(reader.pendingByteCount) bytes held after the frames were taken")
    }
    return 0
}

/// `frame` is within the limit and reads back the same once written.
func check(_ frame: APIFrame, framing: APIFraming, limit: Int) {
    var written: [UInt8] = []
    switch frame {
    case .message(let type, let payload):
        Fuzz.require(framing == .plaintext && payload.count <= limit, "a plaintext frame of \(payload.count) bytes read")
        APIFrameWriter.appendMessage(type: type, payload: payload, to: &written)
    case .noise(let body):
        Fuzz.require(framing == .noise && body.count <= limit, "a Noise frame of \(body.count) bytes read")
        do { try APIFrameWriter.appendNoise(body: body, to: &written) } catch {
            Fuzz.require(false, "a Noise frame read cannot be written: \(error.message)")
        }
    }
    var again = APIFrameReader(framing: framing, limit: limit)
    again.append(contentsOf: written)
    Fuzz.require((try? again.next()) == frame, "a frame written again reads back otherwise")
}
