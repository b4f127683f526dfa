import FoundationEssentials
import VocabCore
import VocabStore

/// Finding the books a workflow runs over, from what the user named.
public enum BookLookup {
    /// The outcome of choosing books for a game when the user may have named none.
    public enum Choice {
        case books([Book])
        /// Several books exist and none was named: the caller must ask which.
        case mustChoose(among: [String])
    }

    /// The books named (by name or id, duplicates dropped), or the only book when none is
    /// named. Throws `GameSetupError.noBooks` when the store has no book at all.
    public static func gameBooks(_ references: [String], library: Library) throws -> Choice {
        let store = library.store
        if !references.isEmpty {
            var seen = Set<UUID>()
            return .books(try references.map { try store.book($0) }.filter { seen.insert($0.id).inserted })
        }
        let summaries = try store.bookSummaries()
        if summaries.isEmpty { throw GameSetupError.noBooks }
        if summaries.count == 1 { return .books([summaries[0].book]) }
        return .mustChoose(among: summaries.map(\.book.name))
    }

    /// The ids of the named books, or nil (all books) when none is named.
    public static func bookIds(_ references: [String], library: Library) throws -> [UUID]? {
        references.isEmpty ? nil : try references.map { try library.book($0).id }
    }
}
