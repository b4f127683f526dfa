import Glibc

/// printf-style formatting through the C library (`vsnprintf`), for numbers written with a
/// fixed width or count of decimals ("%.2f", "%3d", "%08d").
public enum CFormat {
    /// `format` filled with `arguments`, as C's printf writes it.
    public static func string(_ format: String, _ arguments: any CVarArg...) -> String {
        var capacity = 256
        while true {
            var buffer = [CChar](repeating: 0, count: capacity)
            let needed = withVaList(arguments) { list in
                buffer.withUnsafeMutableBufferPointer { vsnprintf($0.baseAddress, $0.count, format, list) }
            }
            guard needed >= 0 else { return "" }
            if Int(needed) < capacity {
                return String(decoding: buffer.prefix(Int(needed)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            }
            capacity = Int(needed) + 1
        }
    }
}
