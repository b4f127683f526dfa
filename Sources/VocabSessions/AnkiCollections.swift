import VocabAnki
import VocabCore
import VocabStore

/// A learner's store in the shape an Anki app syncs with: the store stays the truth, and the
/// collection an app downloads is made from it (books as decks, words as notes with a card whose
/// schedule is the word's, reviews as the review log). The protocol's translator calls these.
public enum AnkiCollections {
    /// Where an Anki app's collection stands against the store: its stamps, and whether it holds
    /// no card (an empty side of a first sync is the one overwritten).
    public struct Standing: Equatable, Sendable {
        public var stamps: AnkiSyncStamps
        public var empty: Bool
    }

    /// The store's stamps for the account `account`: changed when anything in it last changed,
    /// and a schema stamp of the account's own that stays the same (an app whose collection came
    /// from this account never needs a full sync for it).
    public static func standing(of pool: LibraryPool, account: String) throws -> Standing {
        try pool.read { library in
            Standing(stamps: try stamps(of: library, account: account), empty: try library.store.wordCount() == 0)
        }
    }

    /// The whole collection, as a full download sends it.
    public static func download(from pool: LibraryPool, account: String, now: Timestamp) throws -> [UInt8] {
        try pool.read { library in
            try AnkiExport.collectionBytes(from: library.store, stamps: try stamps(of: library, account: account), now: now)
        }
    }

    /// Runs `body` with the collection the store of `pool` keeps for `account` (on the writer:
    /// one call at a time).
    public static func kept<T>(_ pool: LibraryPool, account: String, now: Timestamp, _ body: (AnkiKeptCollection) throws -> T) throws -> T {
        try pool.write { library in try body(AnkiKeptCollection(store: library.store, account: account, now: now)) }
    }

    /// The stamps of the store as `library` reads it, for `account`.
    private static func stamps(of library: Library, account: String) throws -> AnkiSyncStamps {
        let schema = schemaStamp(account)
        return AnkiSyncStamps(modified: max(try library.store.latestChangeTime(), schema), schema: schema, usn: 1)
    }

    /// The account of a server of one learner: its store's own id (made on first use).
    public static func storeAccount(of pool: LibraryPool) throws -> String {
        try pool.write { library in "store:" + (try library.store.deviceId()) }
    }

    /// A schema stamp (ms) the account keeps: a number of its name's (FNV-1a), between 2020 and
    /// 2023, the same on every server.
    package static func schemaStamp(_ account: String) -> Int64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in account.lowercased().utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return 1_577_836_800_000 + Int64(hash % 94_694_400_000)
    }
}
