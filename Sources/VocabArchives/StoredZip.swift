/// A zip held in memory whose entries are stored, not compressed: how Anki's apps pack the media
/// files they send and expect back. Written here rather than through libzip (which works on
/// files), so a request's bytes never touch the file system.
public enum StoredZip {
    /// Why a zip was not read.
    public enum Failure: Error, Equatable {
        /// Not a zip, cut short, or an entry whose checksum or sizes disagree.
        case damaged
        /// An entry packed with a method other than storing.
        case compressed
        /// More entries than allowed.
        case tooManyEntries
        /// An entry larger than allowed.
        case entryTooLarge(name: String)
    }

    /// The entries of `bytes` by name, in order. At most `maxEntries` entries, each at most
    /// `maxEntryBytes`; every entry's checksum is checked.
    public static func entries(of bytes: [UInt8], maxEntries: Int, maxEntryBytes: Int) throws(Failure) -> [(name: String, data: [UInt8])] {
        // The end of the central directory: its signature within the last 64 KiB + 22 bytes.
        let endSize = 22
        guard bytes.count >= endSize else { throw .damaged }
        var end = bytes.count - endSize
        let lowest = max(0, bytes.count - endSize - 0xFFFF)
        while end >= lowest, read32(bytes, end) != 0x0605_4b50 { end -= 1 }
        guard end >= lowest else { throw .damaged }
        let count = Int(read16(bytes, end + 10))
        let directoryOffset = Int(read32(bytes, end + 16))
        guard count <= maxEntries else { throw .tooManyEntries }
        var entries: [(name: String, data: [UInt8])] = []
        var at = directoryOffset
        for _ in 0..<count {
            guard at + 46 <= bytes.count, read32(bytes, at) == 0x0201_4b50 else { throw .damaged }
            let method = read16(bytes, at + 10)
            let crc = read32(bytes, at + 16)
            let packed = Int(read32(bytes, at + 20)), size = Int(read32(bytes, at + 24))
            let nameLength = Int(read16(bytes, at + 28)), extraLength = Int(read16(bytes, at + 30)), commentLength = Int(read16(bytes, at + 32))
            let local = Int(read32(bytes, at + 42))
            guard at + 46 + nameLength <= bytes.count else { throw .damaged }
            let name = String(decoding: bytes[(at + 46)..<(at + 46 + nameLength)], as: UTF8.self)
            guard method == 0, read16(bytes, local + 8) == 0 else { throw .compressed }
            guard size <= maxEntryBytes else { throw .entryTooLarge(name: name) }
            guard packed == size, local + 30 <= bytes.count, read32(bytes, local) == 0x0403_4b50 else { throw .damaged }
            let start = local + 30 + Int(read16(bytes, local + 26)) + Int(read16(bytes, local + 28))
            guard start + size <= bytes.count else { throw .damaged }
            let data = Array(bytes[start..<(start + size)])
            guard CRC32.checksum(data) == crc else { throw .damaged }
            entries.append((name, data))
            at += 46 + nameLength + extraLength + commentLength
        }
        return entries
    }

    /// A zip of `entries`, each stored as it is (names in UTF-8).
    public static func bytes(of entries: [(name: String, data: [UInt8])]) -> [UInt8] {
        var out: [UInt8] = [], directory: [UInt8] = []
        for (name, data) in entries {
            let nameBytes = Array(name.utf8), crc = CRC32.checksum(data), offset = UInt32(truncatingIfNeeded: out.count)
            // Version 2.0, bit 11 (names in UTF-8), stored, no time.
            let common: [UInt8] = le16(20) + le16(0x0800) + le16(0) + le16(0) + le16(0x21)
                + le32(crc) + le32(UInt32(truncatingIfNeeded: data.count)) + le32(UInt32(truncatingIfNeeded: data.count))
                + le16(UInt16(truncatingIfNeeded: nameBytes.count)) + le16(0)
            out += le32(0x0403_4b50) + common + nameBytes + data
            directory += le32(0x0201_4b50) + le16(20) + common + le16(0) + le16(0) + le16(0) + le32(0) + le32(offset) + nameBytes
        }
        let directoryOffset = UInt32(truncatingIfNeeded: out.count)
        out += directory
        let count = UInt16(truncatingIfNeeded: entries.count)
        out += le32(0x0605_4b50) + le16(0) + le16(0) + le16(count) + le16(count)
            + le32(UInt32(truncatingIfNeeded: directory.count)) + le32(directoryOffset) + le16(0)
        return out
    }

    private static func read16(_ bytes: [UInt8], _ at: Int) -> UInt16 {
        guard at >= 0, at + 2 <= bytes.count else { return 0 }
        return UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8
    }

    private static func read32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        guard at >= 0, at + 4 <= bytes.count else { return 0 }
        return UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24
    }

    private static func le16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
    private static func le32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * UInt32($0))) } }
}

/// The CRC-32 a zip keeps of each entry (ISO 3309, reflected, polynomial 0xEDB88320).
public enum CRC32 {
    private static let table: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    public static func checksum(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }
}
