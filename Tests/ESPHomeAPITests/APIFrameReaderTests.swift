import PropertyBased
import Testing

@testable import ESPHomeAPI

/// The frames of ESPHome's native API as aioesphomeapi writes them (the bytes below were serialised
/// with aioesphomeapi 46.23.0's message definitions), read whole whatever pieces they arrive in.
@Suite struct APIFrameReaderTests {
    /// HelloRequest(client_info "aioesphomeapi", API 1.19): 19 bytes of payload, type 1.
    static let hello: [UInt8] = [0x00, 0x13, 0x01] + helloPayload
    static let helloPayload: [UInt8] = [0x0a, 0x0d] + Array("aioesphomeapi".utf8) + [0x10, 0x01, 0x18, 0x13]
    static let ping: [UInt8] = [0x00, 0x00, 0x07]

    @Test func readsTheFramesAClientSendsInOneWrite() throws {
        var reader = APIFrameReader(framing: .plaintext)
        reader.append(contentsOf: Self.hello + Self.ping)
        #expect(try reader.next() == .message(type: 1, payload: Self.helloPayload))
        #expect(try reader.next() == .message(type: 7, payload: []))
        #expect(try reader.next() == nil)
        #expect(reader.pendingByteCount == 0)
    }

    @Test func aFrameThatHasNotAllComeIsNotReadYet() throws {
        var reader = APIFrameReader(framing: .plaintext)
        reader.append(contentsOf: Self.hello.dropLast())
        #expect(try reader.next() == nil)
        reader.append(contentsOf: Self.hello.suffix(1))
        #expect(try reader.next() == .message(type: 1, payload: Self.helloPayload))
    }

    @Test func noiseFramesHaveATwoByteBigEndianSize() throws {
        var reader = APIFrameReader(framing: .noise)
        // The client's empty hello, then a handshake frame of 49 bytes (0x00 and Noise's first message).
        let handshake: [UInt8] = [0x00] + (0..<48).map { UInt8($0) }
        reader.append(contentsOf: [0x01, 0x00, 0x00, 0x01, 0x00, 0x31] + handshake)
        #expect(try reader.next() == .noise(body: []))
        #expect(try reader.next() == .noise(body: handshake))
        #expect(try reader.next() == nil)
    }

    @Test(arguments: [1, 2, 3, 7])
    func framesCutAnywhereComeOutWhole(pieceBound: Int) async {
        await propertyCheck(count: 200, input: Gen.uint64()) { seed in
            var random = SplitMix(seed: seed)
            for framing in [APIFraming.plaintext, .noise] {
                var frames: [APIFrame] = []
                var bytes: [UInt8] = []
                for _ in 0..<Int(random.next() % 6) {
                    let payload = (0..<Int(random.next() % 300)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
                    if framing == .plaintext {
                        let type = UInt16(truncatingIfNeeded: random.next())
                        frames.append(.message(type: type, payload: payload))
                        APIFrameWriter.appendMessage(type: type, payload: payload, to: &bytes)
                    } else {
                        frames.append(.noise(body: payload))
                        try? APIFrameWriter.appendNoise(body: payload, to: &bytes)
                    }
                }
                var reader = APIFrameReader(framing: framing)
                var read: [APIFrame] = []
                var offset = 0
                while offset < bytes.count {
                    let length = min(1 + Int(random.next() % UInt64(pieceBound)), bytes.count - offset)
                    reader.append(contentsOf: bytes[offset..<offset + length])
                    offset += length
                    while let frame = try? reader.next() { read.append(frame) }
                }
                #expect(read == frames, "seed \(seed), \(framing)")
                #expect(reader.pendingByteCount == 0)
            }
        }
    }

    @Test func aFrameOverTheLimitIsRefusedFromItsHeaderAlone() {
        // 32,769 bytes announced (varint 81 80 02), none of them sent.
        var plaintext = APIFrameReader(framing: .plaintext)
        plaintext.append(contentsOf: [0x00, 0x81, 0x80, 0x02])
        #expect(throws: APIFrameError.tooLarge(size: 32_769, limit: 32_768)) { try plaintext.next() }
        var noise = APIFrameReader(framing: .noise, limit: APIFrameReader.handshakeLimit)
        noise.append(contentsOf: [0x01, 0x00, 0x81])
        #expect(throws: APIFrameError.tooLarge(size: 129, limit: 128)) { try noise.next() }
    }

    @Test func aFrameOfTheOtherFramingIsRefusedAndSaysWhatToDo() {
        var plaintext = APIFrameReader(framing: .plaintext)
        plaintext.append(contentsOf: [0x01, 0x00, 0x00])
        #expect(throws: APIFrameError.badIndicator(0x01, expected: .plaintext)) { try plaintext.next() }
        #expect(APIFrameError.badIndicator(0x01, expected: .plaintext).message.contains("remove the encryption key from the client"))
        var noise = APIFrameReader(framing: .noise)
        noise.append(contentsOf: Self.hello)
        #expect(throws: APIFrameError.badIndicator(0x00, expected: .noise)) { try noise.next() }
        #expect(APIFrameError.badIndicator(0x00, expected: .noise).message.contains("give the client the API's encryption key"))
        #expect(APIFrameError.badIndicator(0x47, expected: .noise).message.contains("is it an ESPHome API client?"))
    }

    @Test func aSizeOrTypeMustFitItsVarintAndATypeSixteenBits() throws {
        var overlong = APIFrameReader(framing: .plaintext)
        overlong.append(contentsOf: [0x00, 0x80, 0x80, 0x80, 0x80, 0x01])
        #expect(throws: APIFrameError.overlongVarint) { try overlong.next() }
        var largest = APIFrameReader(framing: .plaintext)
        largest.append(contentsOf: [0x00, 0x00, 0xff, 0xff, 0x03])
        #expect(try largest.next() == .message(type: 65_535, payload: []))
        var over = APIFrameReader(framing: .plaintext)
        over.append(contentsOf: [0x00, 0x00, 0x80, 0x80, 0x04])
        #expect(throws: APIFrameError.typeOutOfRange(65_536)) { try over.next() }
    }

    @Test func aPartialFrameHoldsNoMoreThanTheLimitAndAHeader() throws {
        var reader = APIFrameReader(framing: .plaintext)
        var bytes: [UInt8] = []
        APIFrameWriter.appendMessage(type: 12, payload: [UInt8](repeating: 7, count: APIFrameReader.messageLimit), to: &bytes)
        for _ in 0..<3 { reader.append(contentsOf: bytes) }
        reader.append(contentsOf: bytes.dropLast())
        var frames = 0
        while try reader.next() != nil { frames += 1 }
        #expect(frames == 3)
        #expect(reader.pendingByteCount == bytes.count - 1)
        #expect(reader.pendingByteCount < APIFrameReader.messageLimit + 1 + 2 * APIFrameReader.maximumVarintBytes)
    }
}

/// A small seeded generator (SplitMix64), so that a failing case's seed gives it again.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
