import Crypto

/// A Noise CipherState for `ChaChaPoly`: a key and the count of messages it has encrypted or
/// decrypted, the nonce of the next one (the Noise specification, §5.1). One per direction of a
/// connection once its handshake is over, each counting from 0.
struct NoiseCipherState: Sendable {
    private let key: SymmetricKey
    /// The next message's nonce.
    private(set) var nonce: UInt64 = 0

    /// A cipher of `key`, 32 bytes.
    init(key: [UInt8]) {
        self.key = SymmetricKey(data: key)
    }

    /// `plaintext` encrypted with the next nonce and `associatedData`: the ciphertext and its 16-byte tag.
    mutating func encrypt(_ plaintext: [UInt8], associatedData: [UInt8] = []) throws(NoiseError) -> [UInt8] {
        guard nonce < UInt64.max else { throw .nonceExhausted }
        do {
            let box = try ChaChaPoly.seal(plaintext, using: key, nonce: try Self.chaChaNonce(nonce), authenticating: associatedData)
            nonce += 1
            return Array(box.ciphertext) + Array(box.tag)
        } catch {
            throw .cipher
        }
    }

    /// `ciphertext` (with its 16-byte tag) decrypted with the next nonce and `associatedData`. Throws
    /// `NoiseError.authentication` if the tag does not match: the sender's key is another, or the
    /// bytes were changed; the nonce is then not used up.
    mutating func decrypt(_ ciphertext: [UInt8], associatedData: [UInt8] = []) throws(NoiseError) -> [UInt8] {
        guard nonce < UInt64.max else { throw .nonceExhausted }
        guard ciphertext.count >= Self.tagBytes else { throw .authentication }
        let plaintext: [UInt8]
        do {
            let box = try ChaChaPoly.SealedBox(
                nonce: try Self.chaChaNonce(nonce), ciphertext: ciphertext.dropLast(Self.tagBytes), tag: ciphertext.suffix(Self.tagBytes))
            plaintext = Array(try ChaChaPoly.open(box, using: key, authenticating: associatedData))
        } catch {
            throw .authentication
        }
        nonce += 1
        return plaintext
    }

    /// The size of ChaChaPoly's tag, in bytes.
    static let tagBytes = 16

    /// Noise's ChaChaPoly nonce of count `n`: 4 zero bytes, then `n` in 8 bytes, little-endian.
    private static func chaChaNonce(_ n: UInt64) throws -> ChaChaPoly.Nonce {
        var bytes = [UInt8](repeating: 0, count: 12)
        for index in 0..<8 { bytes[4 + index] = UInt8(truncatingIfNeeded: n >> (8 * UInt64(index))) }
        return try ChaChaPoly.Nonce(data: bytes)
    }
}
