import FoundationEssentials

/// A point in time as milliseconds since the Unix epoch (UTC): how every date is stored and synced.
public struct Timestamp: Hashable, Comparable, Sendable {
    public var milliseconds: Int64

    public init(milliseconds: Int64) {
        self.milliseconds = milliseconds
    }

    public init(_ date: Date) {
        self.milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
    }

    /// The current time of this device's clock.
    public static func now() -> Timestamp { Timestamp(Date()) }

    public var date: Date { Date(timeIntervalSince1970: Double(milliseconds) / 1000) }

    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
        lhs.milliseconds < rhs.milliseconds
    }

    /// This instant plus a number of seconds (may be fractional or negative).
    public func adding(seconds: Double) -> Timestamp {
        Timestamp(milliseconds: milliseconds + Int64((seconds * 1000).rounded()))
    }
}

extension Timestamp {
    /// ISO 8601 in UTC: `2026-11-30T09:15:00Z`, with `.sss` only when the milliseconds are not zero.
    public var iso8601: String {
        var out: [UInt8] = []
        out.reserveCapacity(24)
        writeISO8601(to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends `iso8601`'s UTF-8 to `out` (for output written as bytes).
    public func writeISO8601(to out: inout [UInt8]) {
        let (secondsTotal, millis) = milliseconds.floorDivided(by: 1000)
        let (days, secondOfDay) = secondsTotal.floorDivided(by: 86_400)
        let (year, month, day) = CivilCalendar.date(fromDaysSinceEpoch: days)
        let hour = secondOfDay / 3600, minute = (secondOfDay % 3600) / 60, second = secondOfDay % 60
        writePadded(year, 4, &out)
        out.append(UInt8(ascii: "-"))
        writePadded(month, 2, &out)
        out.append(UInt8(ascii: "-"))
        writePadded(day, 2, &out)
        out.append(UInt8(ascii: "T"))
        writePadded(hour, 2, &out)
        out.append(UInt8(ascii: ":"))
        writePadded(minute, 2, &out)
        out.append(UInt8(ascii: ":"))
        writePadded(second, 2, &out)
        if millis != 0 {
            out.append(UInt8(ascii: "."))
            writePadded(millis, 3, &out)
        }
        out.append(UInt8(ascii: "Z"))
    }

    /// The calendar day (UTC) only: `2026-11-30`.
    public var isoDay: String {
        let (days, _) = milliseconds.floorDivided(by: 86_400_000)
        let (year, month, day) = CivilCalendar.date(fromDaysSinceEpoch: days)
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))"
    }

    /// Parses the ISO 8601 forms people and tools write: `2026-11-30`, `2026-11-30T09:15`,
    /// `2026-11-30T09:15:00`, `2026-11-30 09:15:00.250Z`, `2026-11-30T18:15:00+09:00`.
    /// A date or time without an offset is taken as UTC. Returns nil for anything else.
    public init?(iso8601 text: String) {
        var scanner = DigitScanner(Array(text.utf8))
        guard let year = scanner.number(digits: 4), scanner.take(UInt8(ascii: "-")),
              let month = scanner.number(digits: 2), scanner.take(UInt8(ascii: "-")),
              let day = scanner.number(digits: 2),
              (1...12).contains(month), day >= 1, day <= CivilCalendar.daysIn(month: month, year: year)
        else { return nil }
        var secondOfDay: Int64 = 0
        var millis: Int64 = 0
        var offsetSeconds: Int64 = 0
        if !scanner.atEnd {
            guard scanner.take(UInt8(ascii: "T")) || scanner.take(UInt8(ascii: "t")) || scanner.take(UInt8(ascii: " ")),
                  let hour = scanner.number(digits: 2), scanner.take(UInt8(ascii: ":")),
                  let minute = scanner.number(digits: 2), hour < 24, minute < 60
            else { return nil }
            var second: Int64 = 0
            if scanner.take(UInt8(ascii: ":")) {
                guard let s = scanner.number(digits: 2), s < 60 else { return nil }
                second = s
                if scanner.take(UInt8(ascii: ".")) || scanner.take(UInt8(ascii: ",")) {
                    guard let fraction = scanner.fractionMilliseconds() else { return nil }
                    millis = fraction
                }
            }
            secondOfDay = hour * 3600 + minute * 60 + second
            if scanner.take(UInt8(ascii: "Z")) || scanner.take(UInt8(ascii: "z")) {
                offsetSeconds = 0
            } else if let sign = scanner.takeSign() {
                guard let oh = scanner.number(digits: 2), oh < 24 else { return nil }
                _ = scanner.take(UInt8(ascii: ":"))
                guard let om = scanner.number(digits: 2), om < 60 else { return nil }
                offsetSeconds = sign * (oh * 3600 + om * 60)
            }
            guard scanner.atEnd else { return nil }
        }
        let days = CivilCalendar.daysSinceEpoch(year: year, month: month, day: day)
        let seconds = days * 86_400 + secondOfDay - offsetSeconds
        self.milliseconds = seconds * 1000 + millis
    }
}

/// `pad(value, width)`'s bytes, without making a string for the common case.
private func writePadded(_ value: Int64, _ width: Int, _ out: inout [UInt8]) {
    guard value >= 0 else { return out.append(contentsOf: pad(value, width).utf8) }
    var digits = 1, rest = value / 10
    while rest > 0 { digits += 1; rest /= 10 }
    for _ in 0..<max(0, width - digits) { out.append(UInt8(ascii: "0")) }
    var divisor: Int64 = 1
    for _ in 1..<digits { divisor *= 10 }
    var remaining = value
    while divisor > 0 {
        out.append(UInt8(ascii: "0") + UInt8(remaining / divisor))
        remaining %= divisor
        divisor /= 10
    }
}

private func pad(_ value: Int64, _ width: Int) -> String {
    let digits = String(value)
    return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
}

extension Int64 {
    /// Floor division and its non-negative remainder.
    func floorDivided(by divisor: Int64) -> (quotient: Int64, remainder: Int64) {
        var quotient = self / divisor
        var remainder = self % divisor
        if remainder < 0 { quotient -= 1; remainder += divisor }
        return (quotient, remainder)
    }
}

/// Proleptic Gregorian calendar arithmetic (Howard Hinnant's days-from-civil algorithms).
enum CivilCalendar {
    static func daysSinceEpoch(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let monthIndex = month > 2 ? month - 3 : month + 9
        let dayOfYear = (153 * monthIndex + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    static func date(fromDaysSinceEpoch days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2:
            let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
            return leap ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}

/// Reads fixed-width numbers and punctuation from ASCII bytes.
private struct DigitScanner {
    let bytes: [UInt8]
    var index = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var atEnd: Bool { index == bytes.count }

    mutating func take(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    mutating func takeSign() -> Int64? {
        if take(UInt8(ascii: "+")) { return 1 }
        if take(UInt8(ascii: "-")) { return -1 }
        return nil
    }

    mutating func number(digits: Int) -> Int64? {
        guard index + digits <= bytes.count else { return nil }
        var value: Int64 = 0
        for offset in 0..<digits {
            let byte = bytes[index + offset]
            guard byte >= 48, byte <= 57 else { return nil }
            value = value * 10 + Int64(byte - 48)
        }
        index += digits
        return value
    }

    /// One or more fraction digits, as milliseconds (extra precision is cut off).
    mutating func fractionMilliseconds() -> Int64? {
        var millis: Int64 = 0
        var count = 0
        while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 {
            if count < 3 { millis = millis * 10 + Int64(bytes[index] - 48) }
            count += 1
            index += 1
        }
        guard count > 0 else { return nil }
        for _ in count..<max(count, 3) { millis *= 10 }
        return millis
    }
}
