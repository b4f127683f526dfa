import FoundationEssentials

extension UUID {
    /// A random (version 4) UUID from the system's random source, without the file opens that
    /// Foundation's `UUID()` makes on Linux (they dominated bulk imports).
    public static func random() -> UUID {
        var generator = SystemRandomNumberGenerator()
        let high = generator.next() as UInt64
        let low = generator.next() as UInt64
        var bytes = [UInt8](repeating: 0, count: 16)
        for index in 0..<8 {
            bytes[index] = UInt8(truncatingIfNeeded: high >> (56 - 8 * UInt64(index)))
            bytes[8 + index] = UInt8(truncatingIfNeeded: low >> (56 - 8 * UInt64(index)))
        }
        bytes[6] = (bytes[6] & 0x0F) | 0x40  // version 4
        bytes[8] = (bytes[8] & 0x3F) | 0x80  // RFC 4122 variant
        return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                           bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }

    /// A time-ordered (version 7, RFC 9562) UUID: 48 bits of Unix milliseconds, then random
    /// bits. Ids made one after another sort together, so inserting many new rows touches the
    /// end of the primary-key index instead of random pages all over it.
    public static func timeOrdered(milliseconds: Int64 = Int64(Date().timeIntervalSince1970 * 1000)) -> UUID {
        var ids = TimeOrderedIDs()
        return ids.next(milliseconds: milliseconds)
    }

    /// The id a follower's store keeps a followed book's record under (`id`, its owner's, of
    /// the share `share`): a name-based (version 8) UUID of both, the same on each of the
    /// follower's devices, never one of his own records' (random or time-ordered) — so that a
    /// stranger who pushes a book under the ids of one he saw can never take its place.
    public static func followed(_ id: UUID, share: UUID) -> UUID {
        var bytes = Array(SHA256.hash(Array(("vocab followed " + share.lowercaseText + " " + id.lowercaseText).utf8)).prefix(16))
        bytes[6] = (bytes[6] & 0x0F) | 0x80  // version 8
        bytes[8] = (bytes[8] & 0x3F) | 0x80  // RFC 4122 variant
        return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                           bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }

    /// Whether it is a followed record's id (`followed(_:share:)`).
    public var isFollowedId: Bool { (uuid.6 >> 4) == 8 }

    /// Parses the 36-character text form (either case) without Foundation's slower parser.
    public init?(text: String) {
        var copy = text
        let parsed: uuid_t? = copy.withUTF8 { utf8 in
            guard utf8.count == 36 else { return nil }
            var value: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
            let complete = withUnsafeMutableBytes(of: &value) { bytes -> Bool in
                var offset = 0
                for index in 0..<16 {
                    if offset == 8 || offset == 13 || offset == 18 || offset == 23 {
                        guard utf8[offset] == UInt8(ascii: "-") else { return false }
                        offset += 1
                    }
                    guard let high = UUID.nibble(utf8[offset]), let low = UUID.nibble(utf8[offset + 1]) else { return false }
                    bytes[index] = high << 4 | low
                    offset += 2
                }
                return true
            }
            return complete ? value : nil
        }
        guard let parsed else { return nil }
        self.init(uuid: parsed)
    }

    private static func nibble(_ character: UInt8) -> UInt8? {
        switch character {
        case 48...57: return character - 48
        case 97...102: return character - 87
        case 65...70: return character - 55
        default: return nil
        }
    }

    /// The lowercase text form ids are stored, printed and exported in.
    public var lowercaseText: String {
        String(unsafeUninitializedCapacity: 36) { out in
            writeLowercaseText(into: out)
            return 36
        }
    }

    /// Calls `body` with the 36 bytes of `lowercaseText`, written on the stack (for hot loops
    /// that hand ids to SQLite without making a string of each).
    public func withLowercaseText<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 36) { out in
            writeLowercaseText(into: out)
            return try body(UnsafeBufferPointer(out))
        }
    }

    private func writeLowercaseText(into out: UnsafeMutableBufferPointer<UInt8>) {
        withUnsafeBytes(of: uuid) { bytes in
            var position = 0
            for (index, byte) in bytes.enumerated() {
                if index == 4 || index == 6 || index == 8 || index == 10 {
                    out[position] = UInt8(ascii: "-")
                    position += 1
                }
                out[position] = UUID.hexDigit(byte >> 4)
                out[position + 1] = UUID.hexDigit(byte & 0x0F)
                position += 2
            }
        }
    }

    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }
}

/// Makes many time-ordered (version 7) UUIDs cheaply and in increasing order: one draw from
/// the system's random source seeds a SplitMix64 stream, and ids made in the same millisecond
/// carry a 42-bit counter (RFC 9562, method 1) so that they still sort in the order made.
public struct TimeOrderedIDs {
    private var random: SeededRandom
    private var lastMilliseconds: Int64 = .min
    private var counter: UInt64 = 0

    public init() {
        var system = SystemRandomNumberGenerator()
        random = SeededRandom(seed: system.next())
    }

    private mutating func nextRandom() -> UInt64 { random.next() }

    public mutating func next(milliseconds: Int64) -> UUID {
        if milliseconds == lastMilliseconds {
            counter &+= 1
        } else {
            lastMilliseconds = milliseconds
            counter = nextRandom() >> 23  // 41 random bits: room to count up within the millisecond
        }
        let time = UInt64(bitPattern: milliseconds)
        let random = nextRandom()
        let high = counter >> 30, low = counter & 0x3FFF_FFFF
        func byte(_ value: UInt64, _ shift: UInt64) -> UInt8 { UInt8(truncatingIfNeeded: value >> shift) }
        return UUID(uuid: (
            byte(time, 40), byte(time, 32), byte(time, 24), byte(time, 16), byte(time, 8), byte(time, 0),
            0x70 | (byte(high, 8) & 0x0F), byte(high, 0),
            0x80 | (byte(low, 24) & 0x3F), byte(low, 16), byte(low, 8), byte(low, 0),
            byte(random, 24), byte(random, 16), byte(random, 8), byte(random, 0)
        ))
    }
}
