/// A card's or log entry's row as the kept collection holds it (a JSON array of integers and
/// strings), read in place: each value an integer or where a string's bytes lie. A full
/// download reads 250,000 of them; building each as a JSON value took most of its time.
struct AnkiFlatRow {
    enum Value: Equatable {
        case integer(Int64)
        /// The bytes of a string with no escape in it, as a range of the row's bytes.
        case text(Range<Int>)
    }

    private(set) var values: [Value] = []

    /// Reads `bytes` into `values`; false for any other shape (a nested value, a number with a
    /// fraction, a string with an escape), which the caller reads as JSON instead.
    mutating func read(_ bytes: UnsafeRawBufferPointer) -> Bool {
        values.removeAll(keepingCapacity: true)
        var index = 0
        func skipSpace() { while index < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[index]) { index += 1 } }
        skipSpace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "[") else { return false }
        index += 1
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") { return index + 1 == bytes.count }
        while index < bytes.count {
            skipSpace()
            guard index < bytes.count else { return false }
            if bytes[index] == UInt8(ascii: "\"") {
                let start = index + 1
                index = start
                while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                    if bytes[index] == UInt8(ascii: "\\") || bytes[index] < 0x20 { return false }
                    index += 1
                }
                guard index < bytes.count else { return false }
                values.append(.text(start..<index))
                index += 1
            } else {
                let negative = bytes[index] == UInt8(ascii: "-")
                if negative { index += 1 }
                var magnitude: UInt64 = 0
                let digitsStart = index
                while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 {
                    let (times, overflowTimes) = magnitude.multipliedReportingOverflow(by: 10)
                    let (sum, overflowSum) = times.addingReportingOverflow(UInt64(bytes[index] - 0x30))
                    guard !overflowTimes, !overflowSum else { return false }
                    magnitude = sum
                    index += 1
                }
                guard index > digitsStart, magnitude <= UInt64(Int64.max) else { return false }
                values.append(.integer(negative ? -Int64(magnitude) : Int64(magnitude)))
            }
            skipSpace()
            guard index < bytes.count else { return false }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
            } else if bytes[index] == UInt8(ascii: "]") {
                index += 1
                skipSpace()
                return index == bytes.count
            } else {
                return false
            }
        }
        return false
    }
}
