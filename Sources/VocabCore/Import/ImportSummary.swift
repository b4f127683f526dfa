/// What an import did.
public struct ImportSummary: Sendable, Equatable {
    public var added = 0
    public var updated = 0
    public var unchanged = 0
    /// Books the import created, by name, in the order it created them.
    public var createdBooks: [String] = []
    /// Lines left out with `skipInvalid`, with the reason.
    public var rejected: [RejectedLine] = []

    public var rowsRead: Int { added + updated + unchanged + rejected.count }

    public init(added: Int = 0, updated: Int = 0, unchanged: Int = 0, createdBooks: [String] = [], rejected: [RejectedLine] = []) {
        self.added = added
        self.updated = updated
        self.unchanged = unchanged
        self.createdBooks = createdBooks
        self.rejected = rejected
    }
}

/// A line an import left out, and why (also what the web app sends of it: `{line, reason}`).
public struct RejectedLine: Sendable, Equatable, Codable {
    public var line: Int
    public var reason: String

    public init(line: Int, reason: String) {
        self.line = line
        self.reason = reason
    }
}
