import Crypto
import Testing

@testable import ESPHomeAPI

/// A connection's bytes as aioesphomeapi sends and reads them. The Noise bytes are a vector made with
/// noiseprotocol 0.3.1 (aioesphomeapi's Noise library, which reproduces the specification's vectors)
/// in ESPHome's way: its prologue, empty handshake payloads, a hello and a ping from the client and a
/// ping's answer from the device.
@Suite struct APISessionTests {
    static let bytes = APIMessageTests.bytes
    static let psk = (0..<32).map { UInt8($0) }  // AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=
    static let responderEphemeral = bytes("bbdb4cdbd309f1a1f2e1456967fe288cadd6f712d65dc7b7793d5e63da6b375b")
    /// The client's first write: its empty hello frame, then its handshake frame (0 and `psk, e`).
    static let clientHandshake =
        bytes("010000" + "01003100")
        + bytes("ca35def5ae56cec33dc2036731ab14896bc4c75dbb07a61f879f8e3afa4c7944d00c03baeaaafe2457b12e29cb504957")
    /// HelloRequest("research-check", 1.9) and PingRequest, encrypted.
    static let encryptedHello = bytes("010028") + bytes("5282289c738d96a6246b92e08312488caba29c939e728877e4a5510bea9de7b1c5b4b61061b23523")
    static let encryptedPing = bytes("010014") + bytes("e662f384abc43bb3f2e6d10d1ef5f6498a1d7fb4")

    static func noiseSession(psk: [UInt8] = psk) throws -> APISession {
        APISession(
            security: .noise(psk: psk), name: "swift-dev", compactMACAddress: "aabbccddeeff",
            ephemeral: try Curve25519.KeyAgreement.PrivateKey(rawRepresentation: responderEphemeral))
    }

    @Test func aNoiseClientIsAnsweredAndItsMessagesRead() throws {
        var session = try Self.noiseSession()
        var output: [UInt8] = []
        #expect(try session.receive(Self.clientHandshake, output: &output) == [])
        // The device's hello (Noise chosen, its name and MAC), then its handshake answer.
        let deviceHello = Self.bytes("010018") + [0x01] + Array("swift-dev".utf8) + [0] + Array("aabbccddeeff".utf8) + [0]
        let answer = Self.bytes("01003100")
            + Self.bytes("95ebc60d2b1fa672c1f46a8aa265ef51bfe38e7ccb39ec5be34069f14480884398e1c3da85bd4a0a26c1c8a509f354a8")
        #expect(output == deviceHello + answer)
        #expect(session.isEstablished)
        let hello = Self.bytes("0a0e72657365617263682d636865636b10011809")
        #expect(try session.receive(Self.encryptedHello + Self.encryptedPing, output: &output) == [APIMessage(type: 1, payload: hello), APIMessage(type: 7, payload: [])])
        output = []
        try session.send(APIMessage(type: 8, payload: []), output: &output)
        #expect(output == Self.bytes("010014") + Self.bytes("d658d42de60eda4078ce69abb91b712e306b5348"))
    }

    @Test func theHandshakeWorksWhateverPiecesItArrivesIn() throws {
        var session = try Self.noiseSession()
        var output: [UInt8] = []
        var messages: [APIMessage] = []
        for byte in Self.clientHandshake + Self.encryptedHello { messages += try session.receive([byte], output: &output) }
        #expect(messages.map(\.type) == [1])
        #expect(output.count == 27 + 52)
    }

    @Test func aWrongKeyIsRefusedAsESPHomeRefusesIt() throws {
        var session = try Self.noiseSession(psk: [UInt8](repeating: 0x30, count: 32))
        var output: [UInt8] = []
        // aioesphomeapi raises InvalidEncryptionKeyAPIError for exactly this frame.
        #expect(throws: APISessionError(.wrongKey, farewell: Self.bytes("0100160148616e647368616b65204d4143206661696c757265"))) {
            try session.receive(Self.clientHandshake, output: &output)
        }
        #expect(output.count == 27)  // the device's hello went before
    }

    @Test func aPlaintextClientOfAnEncryptedDeviceIsToldBadIndicatorByte() throws {
        var session = try Self.noiseSession()
        var output: [UInt8] = []
        let error = #expect(throws: APISessionError.self) { try session.receive(APIFrameReaderTests.hello, output: &output) }
        // aioesphomeapi reads the 0x01 and raises RequiresEncryptionAPIError.
        #expect(error?.farewell == [0x01, 0x00, 0x13, 0x01] + Array("Bad indicator byte".utf8))
    }

    @Test func plaintextIsFramesAsTheyCome() throws {
        var session = APISession(security: .plaintext, name: "porch-pi", compactMACAddress: "dca632010203")
        var output: [UInt8] = []
        #expect(try session.receive(APIFrameReaderTests.hello + APIFrameReaderTests.ping, output: &output).map(\.type) == [1, 7])
        #expect(output.isEmpty)
        try session.send(APIMessage(type: 8, payload: []), output: &output)
        #expect(output == [0x00, 0x00, 0x08])
        // A Noise client of a plaintext device: ESPHome's "Bad indicator byte" in plaintext.
        var other = APISession(security: .plaintext, name: "porch-pi", compactMACAddress: "dca632010203")
        #expect(throws: APISessionError(.frame(.badIndicator(1, expected: .plaintext)), farewell: [0x00] + Array("Bad indicator byte".utf8))) {
            try other.receive(Self.clientHandshake, output: &output)
        }
    }
}
