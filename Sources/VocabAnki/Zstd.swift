import CZstd
import VocabCore

/// Whole bodies compressed and decompressed with zstd, as Anki's sync protocol sends them.
public enum Zstd {
    /// Why a body could not be read or written.
    public enum Failure: Error, Equatable, Sendable {
        /// The body unpacks to more than the bound (a zstd bomb, or just too large).
        case tooLarge(bound: Int)
        /// The body is not zstd, or ends mid-frame.
        case damaged(String)
    }

    /// `bytes` decompressed, refused past `bound` bytes as soon as the output passes it (never
    /// more than one chunk past it is held).
    public static func decompress(_ bytes: [UInt8], bound: Int) throws(Failure) -> [UInt8] {
        var total = 0
        var output: [UInt8] = []
        do {
            let stream = try ZstdStream(ArrayByteStream(bytes, chunkSize: 64 * 1024)) { produced in
                total += produced
                if total > bound { throw Failure.tooLarge(bound: bound) }
            }
            while let chunk = try stream.nextChunk() { output += chunk }
        } catch let failure as Failure {
            throw failure
        } catch let damaged as ZstdStream.Damaged {
            throw .damaged(damaged.reason)
        } catch {
            throw .damaged("\(error)")
        }
        return output
    }

    /// `bytes` compressed in one frame that records its size.
    public static func compress(_ bytes: [UInt8], level: Int32 = 3) throws(Failure) -> [UInt8] {
        guard vocab_libzstd_available() == 1 else { throw .damaged("libzstd is not installed (Debian: libzstd1)") }
        var output = [UInt8](repeating: 0, count: vocab_ZSTD_compressBound(bytes.count))
        let capacity = output.count
        let empty: [UInt8] = [0]
        let written = output.withUnsafeMutableBytes { target -> Int? in
            guard let destination = target.baseAddress else { return nil }
            return (bytes.isEmpty ? empty : bytes).withUnsafeBytes { source in
                source.baseAddress.map { vocab_ZSTD_compress(destination, capacity, $0, bytes.count, level) }
            }
        }
        guard let written else { throw .damaged("nothing to compress into") }
        if vocab_ZSTD_isError(written) != 0 { throw .damaged(String(cString: vocab_ZSTD_getErrorName(written))) }
        output.removeSubrange(written...)
        return output
    }
}
