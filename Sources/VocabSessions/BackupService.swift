import FoundationEssentials
import VocabCore
import VocabStore
import VocabSystem
#if canImport(Glibc)
import Glibc
#endif

/// When automatic backups are taken and which are kept: config.json's `"backups"` object
/// (`automatic`, `everyMinutes`, `recent`, `daily`, `weekly`, `monthly`), else the defaults.
public struct BackupPolicy: Sendable, Equatable {
    /// An automatic backup is due when the newest backup is older than this (default 30 min).
    public var intervalMinutes: Int
    public var retention: BackupRetention
    /// False: no automatic backups (`"automatic": false`); those before destructive steps stay.
    public var automatic: Bool

    public init(intervalMinutes: Int = 30, retention: BackupRetention = BackupRetention(), automatic: Bool = true) {
        self.intervalMinutes = max(1, intervalMinutes)
        self.retention = retention
        self.automatic = automatic
    }

    public init(config: [String: JSONValue]) {
        let settings = config["backups"]?.objectValue ?? [:]
        func number(_ key: String, _ fallback: Int) -> Int { settings[key]?.int64Value.flatMap { Int(exactly: $0) } ?? fallback }
        let defaults = BackupRetention()
        self.init(intervalMinutes: number("everyMinutes", 30),
                  retention: BackupRetention(recent: number("recent", defaults.recent), daily: number("daily", defaults.daily),
                                             weekly: number("weekly", defaults.weekly), monthly: number("monthly", defaults.monthly)),
                  automatic: settings["automatic"]?.boolValue ?? true)
    }
}

/// Backups for both front ends: taking one (and pruning by the policy), telling whether an
/// automatic one is due, finding one by a user's reference, restoring.
public enum BackupService {
    /// Whether the newest backup of the store at `storePath` is older than the policy's interval.
    public static func isDue(storePath: String, policy: BackupPolicy, now: Timestamp) -> Bool {
        guard let newest = StoreBackups.list(in: StoreBackups.folder(forStoreAt: storePath)).backups.first else { return true }
        return now.milliseconds - newest.takenAt.milliseconds >= Int64(policy.intervalMinutes) * 60_000
    }

    /// Takes a backup and removes the ones the retention policy no longer keeps; returns the
    /// new backup, its counts and the files removed.
    @discardableResult
    public static func take(_ library: Library, reason: String, policy: BackupPolicy, now: Timestamp) throws
        -> (backup: BackupInfo, counts: StoreCounts, removed: [BackupInfo]) {
        let store = library.store
        let (backup, counts) = try store.takeBackup(reason: reason, at: now)
        return (backup, counts, prune(folder: store.backupFolder, retention: policy.retention))
    }

    /// Compresses the backups older than the newest, where that pays (slow: for the detached
    /// automatic backup and the window's worker, never a command the user waits for).
    public static func compressOlder(of library: Library) {
        StoreBackups.compressOlder(in: library.store.backupFolder)
    }

    /// Deletes the backups the retention policy does not keep (other files are left alone).
    @discardableResult
    public static func prune(folder: String, retention: BackupRetention) -> [BackupInfo] {
        let backups = StoreBackups.list(in: folder).backups
        let kept = retention.keep(backups.map(\.takenAt))
        let removed = backups.filter { !kept.contains($0.takenAt) }
        for backup in removed { unlink(backup.path) }
        return removed
    }

    /// The backup a user means: `latest` (the newest good one, as `newestGood`), a time (any
    /// leading part of ISO 8601, e.g. 2026-12-01T09:30: the newest backup at or before it), or a file path.
    public static func find(_ reference: String, folder: String) throws -> BackupInfo {
        let backups = StoreBackups.list(in: folder).backups
        if reference == "latest" {
            // The same one the message on a damaged store names: the newest that passes its check.
            guard let newest = newestGood(folder: folder) ?? backups.first else { throw BackupError.noBackups(folder: folder) }
            return newest
        }
        if reference.contains("/") || reference.hasSuffix(".sqlite") || reference.hasSuffix(".sqlite.gz") {
            guard FileManager.default.fileExists(atPath: reference) else { throw BackupError.noSuchBackup(reference) }
            let bytes = FileStatus.byteSize(of: reference) ?? 0
            return backups.first { $0.path == reference }
                ?? BackupInfo(path: reference, takenAt: Timestamp(milliseconds: 0), reason: "file", bytes: bytes)
        }
        guard let time = Timestamp(iso8601: reference) ?? Timestamp(iso8601: reference + ":00Z")
                ?? Timestamp(iso8601: reference + "T23:59:59Z") ?? Timestamp(iso8601: reference + "Z") else {
            throw BackupError.noSuchBackup(reference)
        }
        guard let match = backups.first(where: { $0.takenAt <= time }) else { throw BackupError.noSuchBackup(reference) }
        return match
    }

    /// The backups in `folder`, newest first, and the files there that are none.
    public static func list(in folder: String) -> (backups: [BackupInfo], foreign: [String]) {
        StoreBackups.list(in: folder)
    }

    /// Checks the backup at `path` (plain or compressed); what it holds.
    public static func check(_ path: String) throws -> StoreCounts {
        try StoreBackups.check(path)
    }

    /// The backups folder of the store at `storePath`.
    public static func folder(forStoreAt storePath: String) -> String {
        StoreBackups.folder(forStoreAt: storePath)
    }

    /// The newest backup that passes its check, for the message on a damaged store.
    public static func newestGood(folder: String) -> BackupInfo? {
        StoreBackups.list(in: folder).backups.first { (try? StoreBackups.check($0.path)) != nil }
    }

    /// Restores `backup` into the store in `dataFolder`, after backing the current store up
    /// (unless it is damaged: then it is moved aside, kept, and a new store receives the backup).
    /// The restored state is itself recorded as the newest backup (reason `restored`), so that
    /// `latest` and the damage message never pick the snapshot taken before the restore while
    /// the state the learner went on with is newer. Returns that record, the safety backup (nil
    /// when the store was damaged) and what was moved aside.
    public static func restore(_ backup: BackupInfo, dataFolder: String, now: Timestamp) throws
        -> (safety: BackupInfo?, movedAside: String?, restoredState: BackupInfo) {
        let storePath = dataFolder + "/" + Store.fileName
        do {
            let store = try Store.open(folder: dataFolder)
            let safety = try store.takeBackup(reason: "before-restore", at: now).0
            let record = try recordRestoredState(of: backup, storePath: storePath, after: now)
            do {
                try store.restore(from: backup.path)  // checks the backup before anything is replaced
            } catch {
                unlink(record.path)  // the store was not changed: nothing new to record
                throw error
            }
            return (safety, nil, record)
        } catch let error as StoreError {
            switch error {
            case .corrupt, .notAVocabDatabase, .malformedRow:
                // Damaged: keep it aside (never deleted), then restore into a new store — once
                // the backup is known to be good, since the store is moved before the restore checks.
                _ = try StoreBackups.check(backup.path)
                let record = try recordRestoredState(of: backup, storePath: storePath, after: now)
                let aside = dataFolder + "/vocab-damaged-" + now.iso8601.replacingText(":", with: "") + ".sqlite"
                guard rename(storePath, aside) == 0 else { unlink(record.path); throw error }
                for suffix in ["-wal", "-shm"] { _ = rename(storePath + suffix, aside + suffix) }
                let fresh = try Store.open(folder: dataFolder)
                try fresh.restore(from: backup.path)
                return (nil, aside, record)
            default:
                throw error
            }
        }
    }

    /// A copy of `backup`, checked, named as the newest backup of the store at `storePath`
    /// (later than `now` and than every backup there).
    private static func recordRestoredState(of backup: BackupInfo, storePath: String, after now: Timestamp) throws -> BackupInfo {
        let folder = StoreBackups.folder(forStoreAt: storePath)
        let newest = max(now.milliseconds, StoreBackups.list(in: folder).backups.first?.takenAt.milliseconds ?? 0)
        return try StoreBackups.record(copyOf: backup.path, forStoreAt: storePath, reason: "restored",
                                       at: Timestamp(milliseconds: newest + 1))
    }
}
