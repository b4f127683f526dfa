import CQREncode
#if canImport(Glibc)
import Glibc
#endif

/// A QR code drawn with the terminal's half-block characters (two rows of modules per line),
/// dark on light with the quiet zone QR readers need; nil when the text does not fit one.
enum QRCodeText {
    static func lines(for text: String) -> [String]? {
        guard let code = vocab_QRcode_encodeString(text, 0, QR_ECLEVEL_M, QR_MODE_8, 1) else { return nil }
        defer { vocab_QRcode_free(code) }
        let width = Int(code.pointee.width), quiet = 2, size = width + 2 * quiet
        let modules = UnsafeBufferPointer(start: code.pointee.data, count: width * width)
        func dark(_ row: Int, _ column: Int) -> Bool {
            let (r, c) = (row - quiet, column - quiet)
            guard (0..<width).contains(r), (0..<width).contains(c) else { return false }
            return modules[r * width + c] & 1 == 1
        }
        // Light modules are drawn (a block), dark ones left blank: on a dark terminal the code
        // then reads as dark on light, as the readers expect.
        return stride(from: 0, to: size, by: 2).map { row in
            String((0..<size).map { column -> Character in
                switch (!dark(row, column), row + 1 < size && !dark(row + 1, column)) {
                case (true, true): return "█"
                case (true, false): return "▀"
                case (false, true): return "▄"
                case (false, false): return " "
                }
            })
        }
    }
}
