import Testing

@testable import ESPHomeAPI

/// Frames written byte for byte as ESPHome writes them (examples serialised with aioesphomeapi
/// 46.23.0's message definitions, and ESPHome's `api_frame_helper_noise.cpp` rejection).
@Suite struct APIFrameWriterTests {
    @Test func aPlaintextFrameIsIndicatorSizeTypeAndPayload() {
        var bytes: [UInt8] = []
        // BinarySensorStateResponse(key 0x77f53707, state true): type 21.
        APIFrameWriter.appendMessage(type: 21, payload: [0x0d, 0x07, 0x37, 0xf5, 0x77, 0x10, 0x01], to: &bytes)
        #expect(bytes == [0x00, 0x07, 0x15, 0x0d, 0x07, 0x37, 0xf5, 0x77, 0x10, 0x01])
        var ping: [UInt8] = []
        APIFrameWriter.appendMessage(type: 8, payload: [], to: &ping)
        #expect(ping == [0x00, 0x00, 0x08])
        var large: [UInt8] = []
        APIFrameWriter.appendMessage(type: 300, payload: [UInt8](repeating: 0, count: 200), to: &large)
        #expect(large.prefix(5) == [0x00, 0xc8, 0x01, 0xac, 0x02])
    }

    @Test func aNoiseFrameSaysItsBodysSizeInTwoBytesAndRefusesMore() throws {
        var bytes: [UInt8] = []
        try APIFrameWriter.appendNoise(body: [UInt8](repeating: 9, count: 300), to: &bytes)
        #expect(bytes.prefix(3) == [0x01, 0x01, 0x2c])
        #expect(bytes.count == 303)
        var none: [UInt8] = []
        #expect(throws: APIFrameError.tooLarge(size: 65_536, limit: 65_535)) {
            try APIFrameWriter.appendNoise(body: [UInt8](repeating: 0, count: 65_536), to: &none)
        }
        #expect(none.isEmpty)
    }

    @Test func theWrongIndicatorsReplyIsESPHomesInEachFraming() {
        let text = Array("Bad indicator byte".utf8)
        #expect(APIFrameWriter.badIndicatorReply(.plaintext) == [0x00] + text)
        #expect(APIFrameWriter.badIndicatorReply(.plaintext).count == 19)
        #expect(APIFrameWriter.badIndicatorReply(.noise) == [0x01, 0x00, 0x13, 0x01] + text)
    }
}
