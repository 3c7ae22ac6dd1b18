import Crypto
import Testing

@testable import ESPHomeAPI

/// The device's side of `Noise_NNpsk0_25519_ChaChaPoly_SHA256` against the published test vector of
/// the Noise specification's implementations (cacophony's, which snow carries as
/// `tests/vectors/cacophony.txt`): with the responder's ephemeral key fixed, every byte it writes and
/// the handshake hash are the vector's. A handshake with a copy of itself would prove nothing: left
/// without the extra MixKey a PSK handshake does on each `e`, both sides would still agree.
@Suite struct NoiseHandshakeTests {
    static let bytes = APIMessageTests.bytes
    static let psk = bytes("54686973206973206d7920417573747269616e20706572737065637469766521")
    static let prologue = Array("John Galt".utf8)
    static let responderEphemeral = bytes("bbdb4cdbd309f1a1f2e1456967fe288cadd6f712d65dc7b7793d5e63da6b375b")

    static func responder(psk: [UInt8] = psk) throws -> NoiseHandshake {
        NoiseHandshake(psk: psk, prologue: prologue, ephemeral: try Curve25519.KeyAgreement.PrivateKey(rawRepresentation: responderEphemeral))
    }

    @Test func theHandshakeAndMessagesAreTheVectors() throws {
        var handshake = try Self.responder()
        let first = Self.bytes(
            "ca35def5ae56cec33dc2036731ab14896bc4c75dbb07a61f879f8e3afa4c794479b962b8aff8485742ac32f905ba45369e2465fb59e138a93d67a0d1266b6a54")
        #expect(try handshake.readClientMessage(first) == Array("Ludwig von Mises".utf8))
        let second = try handshake.writeDeviceMessage(payload: Array("Murray Rothbard".utf8))
        #expect(
            second
                == Self.bytes(
                    "95ebc60d2b1fa672c1f46a8aa265ef51bfe38e7ccb39ec5be34069f144808843d6062704d5a9c422a8e834423f8c1feada7e8d0d910a1a2cd030fb584221e3"))
        #expect(handshake.h == Self.bytes("f4d03dc34495c95729ea6de9e1b59004b59733102488b3e24bc441e0be208eaf"))
        var (receiving, sending) = handshake.split()
        // The transport messages alternate: the initiator's, then the responder's.
        #expect(try receiving.decrypt(Self.bytes("e632c3763d7669067383433197a3baddf146e9e70ad4b4e9e59e0f")) == Array("F. A. Hayek".utf8))
        #expect(try sending.encrypt(Array("Carl Menger".utf8)) == Self.bytes("64c6bee32ea91c8474bb4c21d7a700109ad45af77b29764ba5eb1e"))
        #expect(
            try receiving.decrypt(Self.bytes("e2fa0bed0603b62d3ccac2ecabbf3fe33f3e86514909b323361626266cb2471cc8")) == Array("Jean-Baptiste Say".utf8))
        #expect(
            try sending.encrypt(Self.bytes("457567656e2042f6686d20766f6e2042617765726b"))  // "Eugen Böhm von Bawerk" in Latin-1
                == Self.bytes("0c01dc9cec1fe4ddd692e8dd32188aa351088dc91183639a53b57aa4692b5ebdef8b8ca111"))
    }

    @Test func anotherKeyFailsTheClientsMessage() throws {
        var handshake = try Self.responder(psk: [UInt8](repeating: 0x30, count: 32))
        let first = Self.bytes(
            "ca35def5ae56cec33dc2036731ab14896bc4c75dbb07a61f879f8e3afa4c794479b962b8aff8485742ac32f905ba45369e2465fb59e138a93d67a0d1266b6a54")
        #expect(throws: NoiseError.authentication) { try handshake.readClientMessage(first) }
    }

    @Test func aChangedByteFailsATransportMessage() throws {
        var handshake = try Self.responder()
        try handshake.readClientMessage(
            Self.bytes(
                "ca35def5ae56cec33dc2036731ab14896bc4c75dbb07a61f879f8e3afa4c794479b962b8aff8485742ac32f905ba45369e2465fb59e138a93d67a0d1266b6a54"))
        _ = try handshake.writeDeviceMessage(payload: Array("Murray Rothbard".utf8))
        var (receiving, _) = handshake.split()
        var changed = Self.bytes("e632c3763d7669067383433197a3baddf146e9e70ad4b4e9e59e0f")
        changed[3] ^= 1
        #expect(throws: NoiseError.authentication) { try receiving.decrypt(changed) }
        // The nonce was not used up: the true message still opens.
        #expect(try receiving.decrypt(Self.bytes("e632c3763d7669067383433197a3baddf146e9e70ad4b4e9e59e0f")) == Array("F. A. Hayek".utf8))
    }
}
