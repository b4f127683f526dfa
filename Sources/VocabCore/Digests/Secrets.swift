/// Secrets made and compared the way every part of Vocab that keeps one needs: random bytes
/// from the system's source, and comparison in time that does not tell where two differ.
public enum Secrets {
    /// `bytes` random bytes (the system's source: getrandom), as lowercase hex.
    public static func randomHex(bytes: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        let digits = Array("0123456789abcdef")
        return String((0..<bytes).flatMap { _ -> [Character] in
            let byte = Int(generator.next() & 0xFF)
            return [digits[byte >> 4], digits[byte & 0xF]]
        })
    }

    /// Whether `a` and `b` are equal, compared in time that depends on the length only (no
    /// early exit on the first difference).
    public static func sameBytes(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        return zip(a, b).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
