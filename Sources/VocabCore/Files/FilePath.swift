/// Path arithmetic on plain strings.
///
/// Foundation's `NSString.deletingLastPathComponent` traps on one-character names in
/// swift-corelibs-foundation on Linux (`vocab export -o x` crashed), so this is done by hand.
public enum FilePath {
    /// The folder holding `path`: "" for a bare name, "/" for an entry of the root (and the root).
    public static func parentFolder(of path: String) -> String {
        let trimmed = withoutTrailingSlashes(path)
        guard let slash = trimmed.lastIndex(of: "/") else { return "" }
        let parent = trimmed[..<slash]
        return parent.isEmpty ? "/" : String(parent)
    }

    /// The folder holding `path`, with "." for a bare name (ready to open or test).
    public static func folder(of path: String) -> String {
        let parent = parentFolder(of: path)
        return parent.isEmpty ? "." : parent
    }

    /// The last part of `path` ("b.csv" for "/a/b.csv", "a" for "/a/"; "/" for the root).
    public static func lastComponent(of path: String) -> String {
        let trimmed = withoutTrailingSlashes(path)
        guard trimmed != "/", let slash = trimmed.lastIndex(of: "/") else { return String(trimmed) }
        return String(trimmed[trimmed.index(after: slash)...])
    }

    /// The extension of `path`'s last part, without the dot ("csv" for "a/b.csv"; "" for
    /// "a/b" and for a name that only starts with a dot, such as ".profile").
    public static func fileExtension(of path: String) -> String {
        let name = lastComponent(of: path)
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
        return String(name[name.index(after: dot)...])
    }

    /// `path` with `name` added as its last part (one slash between them).
    public static func joining(_ path: String, _ name: String) -> String {
        path.isEmpty ? name : path.hasSuffix("/") ? path + name : path + "/" + name
    }

    /// `path` without the slashes it ends in, but a lone "/" (the root) kept.
    private static func withoutTrailingSlashes(_ path: String) -> Substring {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        return trimmed
    }
}
