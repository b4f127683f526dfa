/// A source of bytes read in chunks: a file, standard input, or an array in tests.
public protocol ByteStream {
    /// The next chunk of bytes, or nil at the end. Chunks are never empty.
    mutating func nextChunk() throws -> [UInt8]?
}

/// A byte stream over bytes already in memory (for tests and small inputs).
public struct ArrayByteStream: ByteStream {
    private var bytes: [UInt8]?
    private let chunkSize: Int
    private var offset = 0

    /// `chunkSize` lets tests split input at awkward places.
    public init(_ bytes: [UInt8], chunkSize: Int = 65_536) {
        self.bytes = bytes
        self.chunkSize = max(1, chunkSize)
    }

    public init(_ text: String, chunkSize: Int = 65_536) {
        self.init(Array(text.utf8), chunkSize: chunkSize)
    }

    public mutating func nextChunk() throws -> [UInt8]? {
        guard let bytes, offset < bytes.count else { return nil }
        let end = min(bytes.count, offset + chunkSize)
        defer { offset = end }
        return Array(bytes[offset..<end])
    }
}

/// Drops a UTF-8 byte-order mark from the start of a stream, even when the stream's first
/// chunks are shorter than the mark.
public struct BOMSkippingStream: ByteStream {
    private var base: any ByteStream
    private var started = false

    public init(_ base: any ByteStream) { self.base = base }

    public mutating func nextChunk() throws -> [UInt8]? {
        guard !started else { return try base.nextChunk() }
        started = true
        var first: [UInt8] = []
        while first.count < 3, let more = try base.nextChunk() { first += more }
        if first.starts(with: [0xEF, 0xBB, 0xBF]) { first.removeFirst(3) }
        if first.isEmpty { return try base.nextChunk() }
        return first
    }
}
