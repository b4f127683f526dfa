/// Path arithmetic on plain strings.
///
/// Foundation's `NSString.deletingLastPathComponent` traps on one-character names in
/// swift-corelibs-foundation on Linux (`vocab export -o x` crashed), so this is done by hand.
public enum FilePath {
    /// The folder holding `path`: "" for a bare name, "/" for an entry of the root (and the root).
    public static func parentFolder(of path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return "" }
        let parent = trimmed[..<slash]
        return parent.isEmpty ? "/" : String(parent)
    }

    /// The folder holding `path`, with "." for a bare name (ready to open or test).
    public static func folder(of path: String) -> String {
        let parent = parentFolder(of: path)
        return parent.isEmpty ? "." : parent
    }
}
