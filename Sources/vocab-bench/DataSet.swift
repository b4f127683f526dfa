import Foundation

/// Deterministic word lists with realistic field lengths, written as CSV.
struct DataSet {
    /// A small linear congruential generator: the same seed gives the same file everywhere.
    struct Generator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 33
        }
        mutating func int(_ range: ClosedRange<Int>) -> Int {
            range.lowerBound + Int(next() % UInt64(range.count))
        }
    }

    static let letters = Array("abcdefghijklmnopqrstuvwxyz")
    static let hangul = (0xAC00...0xAC00 + 400).compactMap { Unicode.Scalar($0).map(Character.init) }

    /// Writes `rows` words (header included) to `path`; returns the file's size in bytes.
    @discardableResult
    static func writeCSV(rows: Int, to path: String, seed: UInt64 = 42) throws -> Int {
        guard FileManager.default.createFile(atPath: path, contents: nil),
              let handle = FileHandle(forWritingAtPath: path) else {
            throw BenchError.message("cannot write \(path)")
        }
        defer { try? handle.close() }
        var generator = Generator(state: seed)
        var buffer = "word,definition,detail,pronunciation,synonym,antonym,date,memorized\n"
        var size = 0
        func word(_ length: ClosedRange<Int>) -> String {
            String((0..<generator.int(length)).map { _ in letters[generator.int(0...25)] })
        }
        func sentence(_ words: ClosedRange<Int>) -> String {
            (0..<generator.int(words)).map { _ in word(2...9) }.joined(separator: " ")
        }
        for index in 0..<rows {
            // A unique word: random letters plus the row number in base 26.
            var suffix = "", number = index
            repeat { suffix.append(letters[number % 26]); number /= 26 } while number > 0
            let text = word(3...9) + suffix
            let korean = String((0..<generator.int(2...6)).map { _ in hangul[generator.int(0...(hangul.count - 1))] })
            let definition = "\"\(korean), \(sentence(2...10))\""
            let detail = generator.int(0...2) == 0 ? "" : "\"\(sentence(4...16)).\""
            let day = 1 + generator.int(0...27), month = 1 + generator.int(0...11)
            let date = "2025-\(month < 10 ? "0" : "")\(month)-\(day < 10 ? "0" : "")\(day)"
            buffer += "\(text),\(definition),\(detail),/\(word(3...8))/,\(word(3...9)),\(word(3...9)),\(date),\(generator.int(0...3) == 0 ? "yes" : "no")\n"
            if buffer.utf8.count > 1 << 20 {
                size += buffer.utf8.count
                handle.write(Data(buffer.utf8))
                buffer = ""
            }
        }
        size += buffer.utf8.count
        handle.write(Data(buffer.utf8))
        return size
    }
}

enum BenchError: Error, CustomStringConvertible {
    case message(String)
    var description: String {
        switch self { case .message(let text): return text }
    }
}
