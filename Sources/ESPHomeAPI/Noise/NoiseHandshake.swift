import Crypto

/// The device's side (the responder) of the Noise handshake ESPHome's API uses,
/// `Noise_NNpsk0_25519_ChaChaPoly_SHA256` (the Noise specification, revision 34): no static keys, the
/// pre-shared key (the 32 bytes of `api: encryption: key:`) mixed in first. The client sends `psk, e`
/// (its ephemeral public key, then its encrypted payload: ESPHome's clients send none, so 48 bytes
/// with the tag), the device answers `e, ee` (the same), and the two split into a cipher for each
/// direction. Pure: the device's ephemeral key is given.
struct NoiseHandshake: Sendable {
    /// The protocol's name, which starts the handshake hash.
    static let protocolName = "Noise_NNpsk0_25519_ChaChaPoly_SHA256"
    /// The size of a handshake message without a payload, in bytes: a public key and a tag.
    static let messageBytes = 32 + NoiseCipherState.tagBytes

    /// The chaining key.
    private var ck: [UInt8]
    /// The handshake hash.
    private(set) var h: [UInt8]
    private var cipher: NoiseCipherState?
    private let psk: [UInt8]
    private let ephemeral: Curve25519.KeyAgreement.PrivateKey

    /// A handshake under pre-shared key `psk` (32 bytes), of which both sides hash `prologue` first
    /// (ESPHome's: `NoiseAPIInit`, then the client's hello frame's size in 2 bytes and its bytes),
    /// the device's ephemeral key `ephemeral` (a new one for every connection).
    init(psk: [UInt8], prologue: [UInt8], ephemeral: Curve25519.KeyAgreement.PrivateKey) {
        // A name over 32 bytes is hashed (§5.2, InitializeSymmetric).
        h = Array(SHA256.hash(data: Array(Self.protocolName.utf8)))
        ck = h
        self.psk = psk
        self.ephemeral = ephemeral
        mixHash(prologue)
    }

    /// Reads the client's message (`psk, e`, then its encrypted payload): the payload. Throws
    /// `NoiseError.authentication` when the client's key is not the device's.
    @discardableResult
    mutating func readClientMessage(_ message: [UInt8]) throws(NoiseError) -> [UInt8] {
        guard message.count >= Self.messageBytes else { throw .badHandshakeMessage(size: message.count) }
        mixKeyAndHash(psk)
        let remoteEphemeral = Array(message.prefix(32))
        mixHash(remoteEphemeral)
        mixKey(remoteEphemeral)  // psk handshakes mix each ephemeral key in as a key too
        let payload = try decryptAndHash(Array(message.suffix(from: 32)))
        self.remoteEphemeral = remoteEphemeral
        return payload
    }

    private var remoteEphemeral: [UInt8]?

    /// The device's answer (`e, ee`, then `payload` encrypted: ESPHome sends none) to the client's
    /// message read before.
    mutating func writeDeviceMessage(payload: [UInt8] = []) throws(NoiseError) -> [UInt8] {
        guard let remoteEphemeral else { throw .badHandshakeMessage(size: 0) }
        let publicKey = Array(ephemeral.publicKey.rawRepresentation)
        mixHash(publicKey)
        mixKey(publicKey)
        let shared: [UInt8]
        do {
            let secret = try ephemeral.sharedSecretFromKeyAgreement(with: .init(rawRepresentation: remoteEphemeral))
            shared = secret.withUnsafeBytes { Array($0) }
        } catch {
            throw .badPublicKey
        }
        mixKey(shared)
        return publicKey + (try encryptAndHash(payload))
    }

    /// The two ciphers of the messages after the handshake (§5.2, Split): the client's to the device
    /// (`receiving`) and the device's to the client (`sending`).
    func split() -> (receiving: NoiseCipherState, sending: NoiseCipherState) {
        let keys = Self.hkdf(chainingKey: ck, input: [], outputs: 2)
        return (NoiseCipherState(key: keys[0]), NoiseCipherState(key: keys[1]))
    }

    // MARK: The symmetric state (§5.2)

    private mutating func mixHash(_ data: [UInt8]) {
        h = Array(SHA256.hash(data: h + data))
    }

    private mutating func mixKey(_ input: [UInt8]) {
        let keys = Self.hkdf(chainingKey: ck, input: input, outputs: 2)
        ck = keys[0]
        cipher = NoiseCipherState(key: keys[1])
    }

    private mutating func mixKeyAndHash(_ input: [UInt8]) {
        let keys = Self.hkdf(chainingKey: ck, input: input, outputs: 3)
        ck = keys[0]
        mixHash(keys[1])
        cipher = NoiseCipherState(key: keys[2])
    }

    private mutating func encryptAndHash(_ plaintext: [UInt8]) throws(NoiseError) -> [UInt8] {
        guard var cipher else { throw .cipher }
        let ciphertext = try cipher.encrypt(plaintext, associatedData: h)
        self.cipher = cipher
        mixHash(ciphertext)
        return ciphertext
    }

    private mutating func decryptAndHash(_ ciphertext: [UInt8]) throws(NoiseError) -> [UInt8] {
        guard var cipher else { throw .cipher }
        let plaintext = try cipher.decrypt(ciphertext, associatedData: h)
        self.cipher = cipher
        mixHash(ciphertext)
        return plaintext
    }

    /// Noise's HKDF: `outputs` (2 or 3) blocks of 32 bytes, which are RFC 5869's HKDF-SHA256 with the
    /// chaining key as salt and no info, cut in 32-byte pieces.
    private static func hkdf(chainingKey: [UInt8], input: [UInt8], outputs: Int) -> [[UInt8]] {
        let key = HKDF<SHA256>.deriveKey(inputKeyMaterial: SymmetricKey(data: input), salt: chainingKey, info: [UInt8](), outputByteCount: 32 * outputs)
        let bytes = key.withUnsafeBytes { Array($0) }
        return (0..<outputs).map { Array(bytes[32 * $0..<32 * ($0 + 1)]) }
    }
}
