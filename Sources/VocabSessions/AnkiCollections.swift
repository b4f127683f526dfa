import FoundationEssentials
import VocabAnki
import VocabCloudAPI
import VocabCore
import VocabStore

/// Where a cloud keeps the collection of a learner's Anki apps, for a server's copy of it: what
/// changed since a version, and a call's changes stored if nothing else was meanwhile.
public protocol AnkiCollectionCloud {
    /// The collection's version and state now, and its rows written or removed after `since`.
    func pull(since: Int64) throws -> (version: Int64, state: String?, rows: [AnkiKeptRow])
    /// Stores `rows` and, when given, `state`, if the collection is still at `expected`; returns
    /// its new version, or nil when another server wrote first.
    func push(expected: Int64, state: String?, rows: [AnkiKeptRow]) throws -> Int64?
    /// Keeps `package` (an Anki package of `words` words an upload is about to delete) as a
    /// backup of the account under `id`, replacing one kept under the same id.
    func keepBackup(id: UUID, words: Int, package: [UInt8]) throws
    /// Where the cloud keeps the apps' media files.
    var media: any AnkiMediaKeeper { get }
}

/// The collection a learner's Anki apps sync with, kept for his account (`AnkiKeptCollection`):
/// in his store on a server of one learner, in the cloud (a copy in his store) on a cloud's
/// servers. The protocol's translator calls these.
public enum AnkiCollections {
    /// Where an Anki app's collection stands against the store: its stamps, and whether it holds
    /// no card (an empty side of a first sync is the one overwritten).
    public struct Standing: Equatable, Sendable {
        public var stamps: AnkiSyncStamps
        public var empty: Bool
        /// What a full upload did, told once.
        public var notice: UploadNotice?
    }

    /// Runs `body` with the collection the store of `pool` keeps for `account` (on the writer:
    /// one call at a time). With `cloud`, the store keeps a copy of the cloud's: brought up to
    /// it first, and what the call changed handed on in the same store transaction (so a call
    /// whose changes the cloud did not take changes nothing here either). When another server
    /// wrote first, the call runs again on what it wrote (three times at most: then "busy").
    /// `downloadFolder`: where the file a full download sends is kept ready (`AnkiKeptCollection`).
    /// `deferral` (a server of one learner, never with `cloud`): an upload an earlier call left is
    /// taken first, and a sync's end leaves its changes to be brought into the words after.
    public static func kept<T>(_ pool: LibraryPool, account: String, now: Timestamp, cloud: (any AnkiCollectionCloud)? = nil,
                               downloadFolder: String? = nil, deferral: AnkiDeferral? = nil,
                               _ body: (AnkiKeptCollection) throws -> T) throws -> T {
        guard let cloud else {
            return try pool.write { library in
                // An upload left is taken first; a sync's changes left wait for a mirror that needs them.
                if let deferral { try takeUploadLeft(library.store, account: account, uploadFolder: deferral.uploadFolder) }
                return try body(AnkiKeptCollection(store: library.store, account: account, now: now, downloadFolder: downloadFolder,
                                                   defersReflect: deferral != nil))
            }
        }
        for _ in 0..<3 {
            do {
                return try pool.write { library in
                    try library.store.transaction {
                        let store = library.store
                        try store.trackAnkiChanges()
                        let held = try store.ankiCopyVersion()
                        var pulled = try cloud.pull(since: held)
                        if pulled.version < held {  // the cloud went back (a standby that lost writes): taken again whole
                            try store.clearAnkiCopy()
                            pulled = try cloud.pull(since: 0)
                        }
                        if pulled.version != held || held == 0 {
                            try store.applyAnkiRows(pulled.rows, state: pulled.state, version: pulled.version)
                        }
                        let result = try body(AnkiKeptCollection(store: store, account: account, now: now, downloadFolder: downloadFolder))
                        let changes = try store.takeAnkiChanges()
                        if !changes.isEmpty {
                            guard let version = try cloud.push(expected: pulled.version, state: changes.state, rows: changes.rows) else {
                                throw WrittenMeanwhile()
                            }
                            try store.setAnkiCopyVersion(version)
                        }
                        return result
                    }
                }
            } catch is WrittenMeanwhile {
                continue
            }
        }
        throw Refusal.accountBusy
    }

    /// A full upload: `collection` replaces the one kept for `account`, and the words follow it
    /// (`AnkiKeptCollection.replace`); returns how many words it deleted. The words it deletes
    /// can be brought back, and the app's next sync is told so: on a server of one learner the
    /// store is backed up first (`before-anki-upload`); on a cloud the words about to go are kept
    /// in the cloud as a backup of the account (an Anki package with their reviews) before
    /// anything of the upload is, and a backup the cloud will not keep (past the account's byte
    /// cap) refuses the upload, which then changes nothing.
    @discardableResult
    public static func upload(_ pool: LibraryPool, account: String, now: Timestamp, cloud: (any AnkiCollectionCloud)?,
                              collection: AnkiUploadedCollection) throws -> Int {
        guard let cloud else {
            let backup = try pool.write { try $0.store.takeBackup(reason: AccountBackups.beforeAnkiUpload, at: now).0 }
            return try kept(pool, account: account, now: now) { kept in
                try kept.replace(with: collection) { doomed in
                    try kept.store.setAnkiNotice(UploadNotice(deletedWords: doomed.count, backupTakenAt: backup.takenAt).text)
                }
            }
        }
        let backupId = UUID()  // one backup, however often the call runs again
        return try kept(pool, account: account, now: now, cloud: cloud) { kept in
            try kept.replace(with: collection) { doomed in
                let package: [UInt8]
                do {
                    package = try AnkiBackupPackage.make(words: doomed, from: kept.store, id: backupId, now: now)
                } catch is AnkiPackageError {
                    throw Refusal.somethingWentWrong  // a fault of the server's, not the upload's
                }
                try cloud.keepBackup(id: backupId, words: doomed.count, package: package)
                try kept.store.setAnkiNotice(UploadNotice(deletedWords: doomed.count, backupTakenAt: now).text)
            }
        }
    }

    /// Brings a backup of the words an upload deleted (`AnkiBackupPackage`) back into the store
    /// of `pool`: new words with their reviews, in the books of their decks' names.
    public static func restore(backup package: [UInt8], into pool: LibraryPool, now: Timestamp) throws -> BackupRestored {
        try pool.write { library in
            do {
                let restored = try AnkiBackupPackage.restore(package, into: library.store, now: now)
                return BackupRestored(words: restored.words, reviews: restored.reviews)
            } catch is AnkiPackageError {
                throw Refusal.somethingWentWrong  // a package the server wrote itself
            }
        }
    }

    /// What the app's next sync is told after an upload that deleted words: how many, and when
    /// the backup of the account as it was was taken.
    public struct UploadNotice: Equatable, Sendable {
        public var deletedWords: Int
        public var backupTakenAt: Timestamp

        /// As the store keeps it until told.
        var text: String { "\(deletedWords) \(backupTakenAt.iso8601)" }

        init(deletedWords: Int, backupTakenAt: Timestamp) {
            self.deletedWords = deletedWords
            self.backupTakenAt = backupTakenAt
        }

        init?(text: String) {
            let parts = text.split(separator: " ")
            guard parts.count == 2, let words = Int(parts[0]), let time = Timestamp(iso8601: String(parts[1])) else { return nil }
            self.init(deletedWords: words, backupTakenAt: time)
        }
    }

    /// Another server wrote the cloud's collection while a call ran here.
    private struct WrittenMeanwhile: Error {}

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
