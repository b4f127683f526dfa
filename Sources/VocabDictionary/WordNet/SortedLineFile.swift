import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// A text file of lines sorted by their first field (WordNet's index and exception files),
/// searched by binary search over byte offsets, reading a few hundred bytes per step instead
/// of loading the file.
final class SortedLineFile {
    let path: String
    private let descriptor: Int32
    private let size: Int

    init?(path: String) {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { return nil }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { close(descriptor); return nil }
        self.path = path
        self.descriptor = descriptor
        self.size = Int(info.st_size)
    }

    deinit { close(descriptor) }

    /// The line whose first field is exactly `key`, or nil: the one line that starts with the
    /// key and its space (a space sorts before every character a key holds, so the order of
    /// such prefixes is the order of the fields).
    func line(forKey key: String) -> String? {
        lines(withPrefix: key + " ", limit: 1).first
    }

    /// The lines that start with `prefix` (at most `limit`), in file order: a binary search for
    /// the first line at or after the prefix, then reading on while they match.
    func lines(withPrefix prefix: String, limit: Int = .max) -> [String] {
        let target = Array(prefix.utf8)
        var low = 0, high = size
        while low < high {
            let middle = (low + high) / 2
            guard let (start, line) = lineStarting(after: middle) else { high = middle; continue }
            // WordNet's files start with a licence block of lines beginning with spaces: they sort first.
            if Array(line.prefix(target.count)).lexicographicallyPrecedes(target) || line.first == UInt8(ascii: " ") {
                low = start + line.count + 1
            } else {
                high = middle
            }
        }
        // `low` is 0 or the start of a line: the first that does not sort before the prefix.
        var found: [String] = []
        var position = low
        while position < size, found.count < limit {
            let line = bytesOfLine(at: position)
            guard line.starts(with: target) else { break }
            found.append(String(decoding: line, as: UTF8.self))
            position += line.count + 1
        }
        return found
    }

    /// The first whole line that starts after `offset` (or at 0), with its start offset.
    private func lineStarting(after offset: Int) -> (Int, [UInt8])? {
        var start = offset
        if offset > 0 {
            // Move past the end of the line `offset` falls in.
            var position = offset - 1
            while true {
                guard let chunk = read(at: position, count: 256), !chunk.isEmpty else { return nil }
                if let newline = chunk.firstIndex(of: 0x0A) { start = position + newline + 1; break }
                position += chunk.count
            }
        }
        guard start < size else { return nil }
        return (start, bytesOfLine(at: start))
    }

    /// The line at a byte offset (WordNet's data files are addressed by offset).
    func line(atOffset offset: Int) -> String? {
        guard offset >= 0, offset < size else { return nil }
        return String(decoding: bytesOfLine(at: offset), as: UTF8.self)
    }

    /// The bytes from `start` to the end of that line (without the newline).
    private func bytesOfLine(at start: Int) -> [UInt8] {
        var line: [UInt8] = []
        var position = start
        while let chunk = read(at: position, count: 512), !chunk.isEmpty {
            if let newline = chunk.firstIndex(of: 0x0A) { line += chunk[..<newline]; break }
            line += chunk
            position += chunk.count
        }
        return line
    }

    private func read(at offset: Int, count: Int) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: count)
        let got = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, count, off_t(offset)) }
        guard got >= 0 else { return nil }
        return Array(buffer[0..<got])
    }
}
