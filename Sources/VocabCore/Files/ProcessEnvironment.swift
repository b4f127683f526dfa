#if canImport(Glibc)
import Glibc
#endif

/// The process's environment variables.
public enum ProcessEnvironment {
    /// Every variable, read straight from `environ` (the first of a name repeated wins, as
    /// `getenv` has it), without starting Foundation's `ProcessInfo` (a cost at every command's
    /// start: DESIGN.md §10).
    public static func current() -> [String: String] {
        var variables: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let equals = text.utf8.firstIndex(of: UInt8(ascii: "=")) {
                let name = String(text[..<equals])
                if variables[name] == nil { variables[name] = String(text[text.index(after: equals)...]) }
            }
            entry += 1
        }
        return variables
    }
}
