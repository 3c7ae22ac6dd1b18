import Crypto

/// One connection's bytes, both ways, in the device's framing: a client's bytes in, its messages out
/// (`receive`), the device's messages in, bytes to send out (`send`). Plaintext, or Noise
/// (`Noise_NNpsk0_25519_ChaChaPoly_SHA256`) after ESPHome's handshake: the client's hello frame, the
/// device's hello (its name and MAC address), the client's handshake message, the device's answer,
/// then one encrypted frame per message, its type and size in 2 bytes each before the payload. Pure.
public struct APISession: Sendable {
    /// How a device's connections are secured.
    public enum Security: Sendable, Equatable {
        case plaintext
        /// Noise, with this pre-shared key (32 bytes: `api: encryption: key:`, base64-decoded).
        case noise(psk: [UInt8])
    }

    private enum NoiseStage: Sendable {
        case awaitingHello(psk: [UInt8], ephemeral: Curve25519.KeyAgreement.PrivateKey)
        case awaitingHandshake(NoiseHandshake)
        case established(receiving: NoiseCipherState, sending: NoiseCipherState)
    }

    private var reader: APIFrameReader
    /// Nil: plaintext.
    private var noise: NoiseStage?
    /// The device's hello in the Noise handshake: `0x01` (Noise chosen), the name, `0`, the MAC
    /// address as 12 lower-case hex digits, `0`.
    private let noiseHello: [UInt8]

    /// A session of a device named `name` with MAC address `compactMACAddress` (12 hex digits),
    /// secured by `security`; `ephemeral`: the device's ephemeral key of this connection's handshake (a
    /// new random one unless a test gives one).
    public init(security: Security, name: String, compactMACAddress: String, ephemeral: Curve25519.KeyAgreement.PrivateKey = .init()) {
        switch security {
        case .plaintext:
            reader = APIFrameReader(framing: .plaintext)
            noise = nil
        case .noise(let psk):
            reader = APIFrameReader(framing: .noise, limit: APIFrameReader.handshakeLimit)
            noise = .awaitingHello(psk: psk, ephemeral: ephemeral)
        }
        noiseHello = [0x01] + Array(name.utf8) + [0] + Array(compactMACAddress.utf8) + [0]
    }

    /// Whether messages can go both ways: plaintext at once, Noise once the handshake is over.
    public var isEstablished: Bool {
        switch noise {
        case nil, .established: true
        default: false
        }
    }

    /// The client's messages in what it sent next, `received`, in order; what the handshake answers is
    /// appended to `output`. Throws `APISessionError` when the connection is to be closed, with what
    /// to send first (`farewell`).
    public mutating func receive(_ received: some Sequence<UInt8>, output: inout [UInt8]) throws(APISessionError) -> [APIMessage] {
        reader.append(contentsOf: received)
        var messages: [APIMessage] = []
        while true {
            let frame: APIFrame?
            do {
                frame = try reader.next()
            } catch {
                if case .badIndicator = error { throw APISessionError(.frame(error), farewell: APIFrameWriter.badIndicatorReply(reader.framing)) }
                throw APISessionError(.frame(error), farewell: [])
            }
            guard let frame else { return messages }
            switch frame {
            case .message(let type, let payload):
                messages.append(APIMessage(type: type, payload: payload))
            case .noise(let body):
                if let message = try receiveNoise(body, output: &output) { messages.append(message) }
            }
        }
    }

    private mutating func receiveNoise(_ body: [UInt8], output: inout [UInt8]) throws(APISessionError) -> APIMessage? {
        switch noise {
        case nil:
            return nil  // a plaintext reader reads no Noise frames
        case .awaitingHello(let psk, let ephemeral)?:
            // ESPHome reads nothing in the client's hello yet, but hashes it (its size, then its bytes).
            let prologue = Array("NoiseAPIInit".utf8) + [UInt8(body.count >> 8), UInt8(truncatingIfNeeded: body.count)] + body
            noise = .awaitingHandshake(NoiseHandshake(psk: psk, prologue: prologue, ephemeral: ephemeral))
            try? APIFrameWriter.appendNoise(body: noiseHello, to: &output)  // a name and a MAC: far below 65,535 bytes
            return nil
        case .awaitingHandshake(var handshake)?:
            // The client's message follows a 0 (no error).
            guard body.first == 0 else { throw Self.rejection(.handshakeErrorByte, text: "Bad handshake error byte") }
            do {
                try handshake.readClientMessage(Array(body.dropFirst()))
            } catch .authentication {
                throw Self.rejection(.wrongKey, text: "Handshake MAC failure")
            } catch {
                throw Self.rejection(.noise(error), text: "Handshake error")
            }
            let answer: [UInt8]
            do {
                answer = try handshake.writeDeviceMessage()
            } catch {
                throw Self.rejection(.noise(error), text: "Handshake error")
            }
            try? APIFrameWriter.appendNoise(body: [0] + answer, to: &output)  // 49 bytes
            let (receiving, sending) = handshake.split()
            noise = .established(receiving: receiving, sending: sending)
            reader.limit = APIFrameReader.messageLimit
            return nil
        case .established(var receiving, let sending)?:
            let plaintext: [UInt8]
            do {
                plaintext = try receiving.decrypt(body)
            } catch {
                throw APISessionError(.noise(error), farewell: [])
            }
            noise = .established(receiving: receiving, sending: sending)
            // The type and the payload's size in 2 bytes each, big-endian; ESPHome checks the size.
            guard plaintext.count >= 4 else { throw APISessionError(.shortMessage, farewell: []) }
            let type = UInt16(plaintext[0]) << 8 | UInt16(plaintext[1])
            let size = Int(plaintext[2]) << 8 | Int(plaintext[3])
            guard size <= plaintext.count - 4 else { throw APISessionError(.shortMessage, farewell: []) }
            return APIMessage(type: type, payload: Array(plaintext[4..<4 + size]))
        }
    }

    /// Appends `message` to `output`, framed (and encrypted) for the client. Throws if the handshake
    /// is not over, or for a Noise message over 65,535 bytes.
    public mutating func send(_ message: APIMessage, output: inout [UInt8]) throws(APISessionError) {
        switch noise {
        case nil:
            APIFrameWriter.appendMessage(type: message.type, payload: message.payload, to: &output)
        case .established(let receiving, var sending)?:
            guard let size = UInt16(exactly: message.payload.count), message.payload.count + 4 + NoiseCipherState.tagBytes <= Int(UInt16.max) else {
                throw APISessionError(.frame(.tooLarge(size: message.payload.count, limit: Int(UInt16.max) - 4 - NoiseCipherState.tagBytes)), farewell: [])
            }
            let plaintext = [UInt8(message.type >> 8), UInt8(truncatingIfNeeded: message.type), UInt8(size >> 8), UInt8(truncatingIfNeeded: size)] + message.payload
            let body: [UInt8]
            do {
                body = try sending.encrypt(plaintext)
            } catch {
                throw APISessionError(.noise(error), farewell: [])
            }
            noise = .established(receiving: receiving, sending: sending)
            try? APIFrameWriter.appendNoise(body: body, to: &output)  // checked above
        default:
            throw APISessionError(.handshakeUnfinished, farewell: [])
        }
    }

    /// A handshake's failure: ESPHome's rejection frame (`0x01` and `text`), which aioesphomeapi reads
    /// as "invalid encryption key" when `text` is `Handshake MAC failure`.
    private static func rejection(_ reason: APISessionError.Reason, text: String) -> APISessionError {
        var farewell: [UInt8] = []
        try? APIFrameWriter.appendNoise(body: [0x01] + Array(text.utf8), to: &farewell)
        return APISessionError(reason, farewell: farewell)
    }
}

/// Why a connection is to be closed, and what to send it first.
public struct APISessionError: Error, Equatable, Sendable {
    public enum Reason: Equatable, Sendable {
        /// Bytes that are not a frame of the device's framing.
        case frame(APIFrameError)
        /// The client's key is not the device's.
        case wrongKey
        /// The client's handshake message did not follow a 0.
        case handshakeErrorByte
        case noise(NoiseError)
        /// An encrypted message shorter than its header says.
        case shortMessage
        /// A message to send before the handshake is over.
        case handshakeUnfinished
    }

    public var reason: Reason
    /// What to send before closing (ESPHome's rejection), or nothing.
    public var farewell: [UInt8]

    init(_ reason: Reason, farewell: [UInt8]) {
        self.reason = reason
        self.farewell = farewell
    }

    /// What the log says, with what to do.
    public var message: String {
        switch reason {
        case .frame(.badIndicator(_, expected: .noise)):
            "the client speaks plaintext, and this device's API is encrypted: give the client the key of 'api: encryption:' "
                + "(Home Assistant asks for it when the device is added)"
        case .frame(.badIndicator(_, expected: .plaintext)):
            "the client encrypts, and this device's API is plaintext ('encryption: none'): remove the key from the client, or give the device one"
        case .frame(let error): error.message
        case .wrongKey:
            "the client's encryption key is not this device's: in Home Assistant, reconfigure the device with the key of 'api: encryption:'"
        case .handshakeErrorByte, .noise, .shortMessage:
            "the client's encrypted bytes are not ESPHome's native API: closed"
        case .handshakeUnfinished: "a message before the encryption's handshake ended"
        }
    }
}
