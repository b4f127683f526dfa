import FoundationEssentials
import VocabCloud
import VocabCloudAPI
import VocabCore
import VocabSessions

/// The backups the cloud keeps of a learner's account (the words an Anki app's whole collection
/// deleted), listed and brought back through the learner's store like any change of his.
extension CloudService {
    /// The backups of the caller's account, newest first.
    package func backups(_ caller: Caller) throws -> [AccountBackup] {
        try withCloud(caller) { try AnkiCloudChannel(connection: $0, device: caller.key).backups() }
    }

    /// Brings the caller's backup `id` back into his account: its words (new ids; a word the
    /// account holds again by its text in its book takes the backup's fields) with their
    /// reviews, in his store through `pool` and then pushed as any device's change.
    package func restoreBackup(_ caller: Caller, id: UUID, now: Timestamp,
                               pool: (Front) -> LibraryPool) throws -> BackupRestored {
        let package = try withCloud(caller, bulk: true) { try AnkiCloudChannel(connection: $0, device: caller.key).backupPackage(id: id) }
        guard let package else { throw Refusal.noSuchBackup }
        return try serve(caller, writing: true, changed: { (restored: BackupRestored) in restored.words + restored.reviews > 0 }) { front in
            try AnkiCollections.restore(backup: package, into: pool(front), now: now)
        }
    }
}
