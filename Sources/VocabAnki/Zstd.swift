import CZstd
import VocabCore
import VocabSystem

/// Whole bodies compressed and decompressed with zstd, as Anki's sync protocol sends them.
public enum Zstd {
    /// Why a body could not be read or written.
    public enum Failure: Error, Equatable, Sendable {
        /// The body unpacks to more than the bound (a zstd bomb, or just too large).
        case tooLarge(bound: Int)
        /// The body is not zstd, or ends mid-frame.
        case damaged(String)
        /// What it unpacks to could not be written (the server's own trouble, not the body's).
        case cannotWrite(String)
    }

    /// `bytes` decompressed, refused past `bound` bytes as soon as the output passes it (never
    /// more than one chunk past it is held).
    public static func decompress(_ bytes: [UInt8], bound: Int) throws(Failure) -> [UInt8] {
        var output: [UInt8] = []
        try decompress(bytes, bound: bound) { output += $0 }
        return output
    }

    /// `bytes` decompressed into the file `output` a chunk at a time (a collection sent whole is
    /// never held unpacked), refused past `bound` bytes as `decompress` refuses it.
    public static func decompress(_ bytes: [UInt8], bound: Int, into output: OutputFile) throws(Failure) {
        try decompress(bytes, bound: bound) { chunk throws(Failure) in
            do { try output.write(chunk) } catch { throw .cannotWrite("\(error)") }
        }
    }

    /// Hands each decompressed chunk of `bytes` to `take`, within `bound` bytes in all; stops at
    /// the first failure, `take`'s too.
    private static func decompress(_ bytes: [UInt8], bound: Int, take: ([UInt8]) throws(Failure) -> Void) throws(Failure) {
        var total = 0
        do {
            let stream = try ZstdStream(ArrayByteStream(bytes, chunkSize: 64 * 1024)) { produced in
                total += produced
                if total > bound { throw Failure.tooLarge(bound: bound) }
            }
            while let chunk = try stream.nextChunk() { try take(chunk) }
        } catch let failure as Failure {
            throw failure
        } catch let damaged as ZstdStream.Damaged {
            throw .damaged(damaged.reason)
        } catch {
            throw .damaged("\(error)")
        }
    }

    /// `bytes` compressed in one frame that records its size.
    public static func compress(_ bytes: [UInt8], level: Int32 = 3) throws(Failure) -> [UInt8] {
        guard vocab_libzstd_available() == 1 else { throw .damaged("libzstd is not installed (Debian: libzstd1)") }
        // The bound's room uninitialized: only the pages the compressed bytes take are touched
        // (a 25 MiB collection's download held 25 MiB of zeros more).
        let capacity = vocab_ZSTD_compressBound(bytes.count)
        let empty: [UInt8] = [0]
        var written = 0
        let output = [UInt8](unsafeUninitializedCapacity: capacity) { target, count in
            count = 0
            guard let destination = target.baseAddress else { return }
            written = (bytes.isEmpty ? empty : bytes).withUnsafeBytes { source in
                source.baseAddress.map { vocab_ZSTD_compress(destination, capacity, $0, bytes.count, level) } ?? 0
            }
            if vocab_ZSTD_isError(written) == 0 { count = written }
        }
        if vocab_ZSTD_isError(written) != 0 { throw .damaged(String(cString: vocab_ZSTD_getErrorName(written))) }
        guard output.count == written else { throw .damaged("nothing to compress into") }
        return output
    }

    /// The file at `path` compressed in one frame that records its size, read a chunk at a time
    /// (a collection sent whole is never held uncompressed); and the file's size.
    public static func compress(file path: String, level: Int32 = 3) throws -> (bytes: [UInt8], size: Int) {
        var output: [UInt8] = []
        let size = try compress(file: path, level: level, reserving: { output.reserveCapacity($0) }) { output += $0 }  // room only: pages are touched as written
        return (output, size)
    }

    /// The file at `path` compressed as `compress(file:level:)` does, into `output` a chunk at a
    /// time (held whole neither way); returns the file's size.
    @discardableResult
    public static func compress(file path: String, level: Int32 = 3, into output: OutputFile) throws -> Int {
        try compress(file: path, level: level, reserving: { _ in }) { try output.write($0) }
    }

    private static func compress(file path: String, level: Int32, reserving: (Int) -> Void, take: (ArraySlice<UInt8>) throws -> Void) throws -> Int {
        guard vocab_libzstd_available() == 1 else { throw Failure.damaged("libzstd is not installed (Debian: libzstd1)") }
        guard let context = vocab_ZSTD_createCCtx() else { throw Failure.damaged("zstd is out of memory") }
        defer { _ = vocab_ZSTD_freeCCtx(context) }
        guard let size = FileStatus.byteSize(of: path) else { throw Failure.damaged("\(path) could not be read") }
        _ = vocab_ZSTD_CCtx_setParameter(context, ZSTD_c_compressionLevel, level)
        _ = vocab_ZSTD_CCtx_setPledgedSrcSize(context, UInt64(size))
        reserving(vocab_ZSTD_compressBound(size))
        var chunk = [UInt8](repeating: 0, count: 1 << 17)
        var reader = try FileReader(path: path)
        defer { reader.close() }
        var read = 0
        func step(_ input: [UInt8], _ end: ZSTD_EndDirective) throws {
            try input.withUnsafeBytes { source in
                var inBuffer = ZSTD_inBuffer(src: source.baseAddress, size: input.count, pos: 0)
                while true {
                    let (left, written) = chunk.withUnsafeMutableBytes { target -> (Int, Int) in
                        var outBuffer = ZSTD_outBuffer(dst: target.baseAddress, size: target.count, pos: 0)
                        let left = vocab_ZSTD_compressStream2(context, &outBuffer, &inBuffer, end)
                        return (left, outBuffer.pos)
                    }
                    if vocab_ZSTD_isError(left) != 0 { throw Failure.damaged(String(cString: vocab_ZSTD_getErrorName(left))) }
                    try take(chunk[0..<written])
                    if end == ZSTD_e_end ? left == 0 : inBuffer.pos == inBuffer.size { return }
                }
            }
        }
        while let input = try reader.nextChunk() {
            read += input.count
            try step(input, ZSTD_e_continue)
        }
        try step([], ZSTD_e_end)
        guard read == size else { throw Failure.damaged("the file changed while it was compressed") }
        return size
    }
}
