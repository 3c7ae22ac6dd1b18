/// Splits what a client sends into frames of one framing, in whatever pieces the bytes arrive: they go
/// in with `append(contentsOf:)`, whole frames come out of `next()`. A frame over `limit` is refused
/// from its header, before its bytes come, so a reader whose frames are taken after each `append` holds
/// at most one partial frame: `limit` and a header.
public struct APIFrameReader: Sendable {
    /// The longest varint of a plaintext header, in bytes, as aioesphomeapi reads them: 4, up to 2²⁸.
    public static let maximumVarintBytes = 4
    /// The largest payload or body ESPHome takes (its `MAX_MESSAGE_SIZE`), in bytes.
    public static let messageLimit = 32_768
    /// The largest Noise handshake message ESPHome takes (its `MAX_HANDSHAKE_SIZE`), in bytes.
    public static let handshakeLimit = 128

    /// The framing every frame must have.
    package let framing: APIFraming
    /// The largest payload (plaintext) or body (Noise) taken, in bytes; a larger one is an error.
    package var limit: Int
    private var bytes: [UInt8] = []
    /// Where in `bytes` the next frame begins: the ones before it were taken.
    private var start = 0

    public init(framing: APIFraming, limit: Int = APIFrameReader.messageLimit) {
        self.framing = framing
        self.limit = limit
    }

    /// The bytes held that no frame has taken yet.
    public var pendingByteCount: Int { bytes.count - start }

    /// Adds what the client sent next.
    public mutating func append(contentsOf received: some Sequence<UInt8>) {
        bytes.append(contentsOf: received)
    }

    /// The next whole frame, or `nil` until more bytes come. After an error the connection is to be
    /// closed: the reader does not find the frames' boundaries again.
    public mutating func next() throws(APIFrameError) -> APIFrame? {
        guard start < bytes.count else { return nil }
        let indicator = bytes[start]
        guard indicator == framing.indicator else { throw .badIndicator(indicator, expected: framing) }
        var cursor = start + 1
        let frame: APIFrame
        switch framing {
        case .plaintext:
            guard let size = try Varint.read(bytes, at: &cursor, maximumBytes: Self.maximumVarintBytes) else { return nil }
            guard size <= limit else { throw .tooLarge(size: Int(size), limit: limit) }
            guard let type = try Varint.read(bytes, at: &cursor, maximumBytes: Self.maximumVarintBytes) else { return nil }
            guard let type16 = UInt16(exactly: type) else { throw .typeOutOfRange(type) }
            guard bytes.count - cursor >= Int(size) else { return nil }
            frame = .message(type: type16, payload: Array(bytes[cursor..<cursor + Int(size)]))
            cursor += Int(size)
        case .noise:
            guard bytes.count - cursor >= 2 else { return nil }
            let size = Int(bytes[cursor]) << 8 | Int(bytes[cursor + 1])
            guard size <= limit else { throw .tooLarge(size: size, limit: limit) }
            cursor += 2
            guard bytes.count - cursor >= size else { return nil }
            frame = .noise(body: Array(bytes[cursor..<cursor + size]))
            cursor += size
        }
        start = cursor
        dropTaken()
        return frame
    }

    /// Forgets the bytes of the frames taken: all of them once nothing else is held, else once they
    /// are a few pages, so that the bytes after them are not moved at every frame.
    private mutating func dropTaken() {
        if start == bytes.count {
            bytes.removeAll(keepingCapacity: true)
            start = 0
        } else if start >= 4096 {
            bytes.removeFirst(start)
            start = 0
        }
    }
}
