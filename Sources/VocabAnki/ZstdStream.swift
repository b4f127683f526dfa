import CZstd
import VocabCore

/// Decompresses a zstd stream (frames without a content size, as Anki writes them) chunk by
/// chunk; `count` is told every decompressed chunk's size so that the caller bounds the total.
final class ZstdStream: ByteStream {
    private var source: any ByteStream
    private let context: OpaquePointer
    private let count: (Int) throws -> Void
    private var input: [UInt8] = []
    private var inputOffset = 0
    private var sourceEnded = false
    /// Whether the last call ended a frame (a stream that stops mid-frame is damaged).
    private var frameComplete = true

    struct Damaged: Error { var reason: String }

    init(_ source: any ByteStream, count: @escaping (Int) throws -> Void) throws {
        guard vocab_libzstd_available() == 1 else { throw Damaged(reason: "libzstd is not installed (Debian: libzstd1)") }
        guard let context = vocab_ZSTD_createDStream() else { throw Damaged(reason: "zstd is out of memory") }
        self.source = source
        self.context = context
        self.count = count
        _ = vocab_ZSTD_initDStream(context)
    }

    deinit { _ = vocab_ZSTD_freeDStream(context) }

    func nextChunk() throws -> [UInt8]? {
        let outputSize = vocab_ZSTD_DStreamOutSize()
        var output = [UInt8](repeating: 0, count: outputSize)
        while true {
            if inputOffset == input.count {
                guard !sourceEnded, let chunk = try source.nextChunk() else {
                    sourceEnded = true
                    guard frameComplete else { throw Damaged(reason: "the compressed data ends mid-frame") }
                    return nil
                }
                input = chunk
                inputOffset = 0
            }
            var produced = 0
            let remaining = try input.withUnsafeBytes { inputBytes -> Int in
                try output.withUnsafeMutableBytes { outputBytes -> Int in
                    var inBuffer = ZSTD_inBuffer(src: inputBytes.baseAddress, size: inputBytes.count, pos: inputOffset)
                    var outBuffer = ZSTD_outBuffer(dst: outputBytes.baseAddress, size: outputBytes.count, pos: 0)
                    let result = vocab_ZSTD_decompressStream(context, &outBuffer, &inBuffer)
                    if vocab_ZSTD_isError(result) != 0 {
                        throw Damaged(reason: String(cString: vocab_ZSTD_getErrorName(result)))
                    }
                    inputOffset = inBuffer.pos
                    produced = outBuffer.pos
                    return result
                }
            }
            frameComplete = remaining == 0
            if produced > 0 {
                try count(produced)
                output.removeSubrange(produced...)
                return output
            }
        }
    }
}
