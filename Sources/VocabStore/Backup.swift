import CSQLite
import FoundationEssentials
import VocabCore
import VocabSystem
#if canImport(Glibc)
import Glibc
#endif

/// Backups of the store: consistent copies through SQLite's online backup API (never a file
/// copy of a live WAL database), written under a temporary name, checked (`quick_check`, the
/// Vocab identity, and the counts the source had at the time of the copy), and only then given
/// their name — so a backup under its name is always a good one. Private: 0600 in a 0700 folder.
public enum StoreBackups {
    /// The backups folder of the store at `storePath`.
    public static func folder(forStoreAt storePath: String) -> String {
        FilePath.folder(of: storePath) + "/backups"
    }

    /// `vocab-20261201T093000.123Z-auto.sqlite`
    static func fileName(at time: Timestamp, reason: String) -> String {
        let stamp = time.iso8601.replacingText("-", with: "").replacingText(":", with: "")
        return "vocab-\(stamp)-\(reason).sqlite"
    }

    /// The time and reason a backup's file name holds; nil for a file that is not a backup.
    static func parse(fileName: String) -> (Timestamp, String)? {
        let name = fileName.hasSuffix(".sqlite.gz") ? String(fileName.dropLast(3)) : fileName
        guard name.hasPrefix("vocab-"), name.hasSuffix(".sqlite") else { return nil }
        let core = name.dropFirst(6).dropLast(7)
        guard let dash = core.firstIndex(of: "-"), core.distance(from: core.startIndex, to: dash) >= 16 else { return nil }
        let stamp = String(core[..<dash]), reason = String(core[core.index(after: dash)...])
        // 20261201T093000.123Z → 2026-12-01T09:30:00.123Z
        let chars = Array(stamp)
        guard chars.count >= 16, chars[8] == "T" else { return nil }
        let iso = String(chars[0..<4]) + "-" + String(chars[4..<6]) + "-" + String(chars[6..<8]) + "T"
            + String(chars[9..<11]) + ":" + String(chars[11..<13]) + ":" + String(chars[13...])
        guard let time = Timestamp(iso8601: iso), !reason.isEmpty,
              reason.allSatisfy({ $0.isLetter || $0 == "-" }) else { return nil }
        return (time, reason)
    }

    /// The backups in `folder`, newest first, and the names of files there that are not backups
    /// (left alone).
    public static func list(in folder: String) -> (backups: [BackupInfo], foreign: [String]) {
        // No folder yet is the common case (no backup taken); a backup is never written here on this answer.
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        var backups: [BackupInfo] = [], foreign: [String] = []
        for name in names where !name.hasPrefix(".") {
            guard let (time, reason) = parse(fileName: name) else { foreign.append(name); continue }
            let path = folder + "/" + name
            let bytes = FileStatus.byteSize(of: path) ?? 0
            backups.append(BackupInfo(path: path, takenAt: time, reason: reason, bytes: bytes))
        }
        return (backups.sorted { $0.takenAt > $1.takenAt }, foreign.sorted())
    }

    /// Checks a backup file (read-only; unpacked for the while when compressed): SQLite's
    /// quick_check, the Vocab identity, a schema this Vocab knows; returns its counts.
    public static func check(_ path: String) throws -> StoreCounts {
        try withPlainFile(path) { try checkPlain($0, reportedAs: path) }
    }

    private static func checkPlain(_ path: String, reportedAs shownPath: String) throws -> StoreCounts {
        do {
            return try checkPlainFile(path)
        } catch BackupError.notABackup(_, let reason) {
            throw BackupError.notABackup(path: shownPath, reason: reason)
        }
    }

    private static func checkPlainFile(_ path: String) throws -> StoreCounts {
        let database: Database
        do {
            database = try Database(path: path, create: false, readOnly: true)
        } catch let error as SQLiteError {
            throw BackupError.notABackup(path: path, reason: error.message)
        }
        do {
            let result = try database.first("PRAGMA quick_check") { $0.text(0) } ?? ""
            guard result == "ok" else { throw BackupError.notABackup(path: path, reason: "damaged: \(result)") }
            guard try database.integer("PRAGMA application_id") == Migrations.applicationID else {
                throw BackupError.notABackup(path: path, reason: "not a Vocab store")
            }
            let version = try database.integer("PRAGMA user_version")
            guard version <= Migrator().latestVersion else {
                throw BackupError.notABackup(path: path, reason: "written by a newer Vocab (schema \(version))")
            }
            return try counts(database)
        } catch let error as SQLiteError {
            throw BackupError.notABackup(path: path, reason: error.message)
        }
    }

    static func counts(_ database: Database) throws -> StoreCounts {
        // A store of an older schema (backed up before its upgrade) may have no review log yet.
        let hasReviews = try database.integer("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'reviews'") > 0
        return StoreCounts(books: Int(try database.integer("SELECT count(*) FROM books")),
                           words: Int(try database.integer("SELECT count(*) FROM words")),
                           reviews: hasReviews ? Int(try database.integer("SELECT count(*) FROM reviews")) : 0)
    }

    /// Copies `source` (whole, one consistent snapshot) into a new file at `path`, made private
    /// from the start.
    static func copy(_ source: Database, to path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard descriptor >= 0 else { throw BackupError.cannotWrite(folder: FilePath.folder(of: path), reason: String(cString: strerror(errno))) }
        close(descriptor)
        let destination: Database
        do {
            destination = try Database(path: path, create: false)
        } catch let error as SQLiteError {
            throw BackupError.cannotWrite(folder: FilePath.folder(of: path), reason: error.message)
        }
        // A new file nobody else reads: no journal while it is written; one fsync at the end.
        try? destination.execute("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF")
        try transfer(from: source, to: destination, folder: FilePath.folder(of: path))
        try? destination.execute("PRAGMA journal_mode = DELETE")
        let descriptor2 = open(path, O_RDONLY)
        defer { if descriptor2 >= 0 { close(descriptor2) } }
        guard descriptor2 >= 0, fsync(descriptor2) == 0 else {
            throw BackupError.cannotWrite(folder: FilePath.folder(of: path), reason: String(cString: strerror(errno)))
        }
    }

    /// SQLite's online backup from `source` into `destination`, in one step (a consistent
    /// snapshot of the source; the destination locked while it is written).
    static func transfer(from source: Database, to destination: Database, folder: String) throws {
        guard let backup = sqlite3_backup_init(destination.handle, "main", source.handle, "main") else {
            throw BackupError.cannotWrite(folder: folder, reason: String(cString: sqlite3_errmsg(destination.handle)))
        }
        var code: Int32
        repeat {
            code = sqlite3_backup_step(backup, -1)
            if code == SQLITE_BUSY || code == SQLITE_LOCKED { usleep(20_000) }
        } while code == SQLITE_BUSY || code == SQLITE_LOCKED || code == SQLITE_OK
        sqlite3_backup_finish(backup)
        guard code == SQLITE_DONE else {
            let reason = code == SQLITE_FULL ? "the disk is full" : String(cString: sqlite3_errstr(code))
            throw BackupError.cannotWrite(folder: folder, reason: reason)
        }
    }
}

extension StoreBackups {
    static func take(from database: Database, storePath: String, reason: String, at time: Timestamp) throws -> (BackupInfo, StoreCounts) {
        let folder = StoreBackups.folder(forStoreAt: storePath)
        do { try FolderMaker.makeFolder(folder) } catch { throw BackupError.cannotWrite(folder: folder, reason: "cannot create it") }
        chmod(folder, 0o700)
        let name = fileName(at: time, reason: reason)
        let partial = folder + "/.partial-" + name
        unlink(partial)
        defer { unlink(partial) }
        // The counts and the copy come from one read transaction (the caller's, a reader's, if
        // one is open): the same snapshot.
        let expected: StoreCounts
        do {
            expected = try database.readTransaction {
                let expected = try counts(database)
                try copy(database, to: partial)
                return expected
            }
        } catch let error as SQLiteError {
            throw BackupError.cannotWrite(folder: folder, reason: error.message)
        }
        let found: StoreCounts
        do {
            found = try check(partial)
        } catch let error as BackupError {
            throw BackupError.checkFailed(detail: error.message)
        }
        guard found == expected else {
            throw BackupError.checkFailed(detail: "it holds \(found.words) words where the store had \(expected.words)")
        }
        let target = folder + "/" + name
        guard rename(partial, target) == 0 else {
            throw BackupError.cannotWrite(folder: folder, reason: String(cString: strerror(errno)))
        }
        let bytes = FileStatus.byteSize(of: target) ?? 0
        return (BackupInfo(path: target, takenAt: time, reason: reason, bytes: bytes), found)
    }
}

extension StoreBackups {
    /// Records a copy of the backup file at `path` (plain or compressed; checked first) as a
    /// backup of the store at `storePath`, taken at `time` for `reason`.
    public static func record(copyOf path: String, forStoreAt storePath: String, reason: String, at time: Timestamp) throws -> BackupInfo {
        try withPlainFile(path) { plain in
            _ = try check(plain)
            let source: Database
            do {
                source = try Database(path: plain, create: false, readOnly: true)
            } catch let error as SQLiteError {
                throw BackupError.notABackup(path: path, reason: error.message)
            }
            return try take(from: source, storePath: storePath, reason: reason, at: time).0
        }
    }
}

extension Store {
    /// The folder this store's backups go to.
    public var backupFolder: String { StoreBackups.folder(forStoreAt: path) }

    /// Takes a backup now: copies, checks, names it; a backup that fails its check is deleted
    /// and reported. `reason` goes into the file name.
    @discardableResult
    public func takeBackup(reason: String, at time: Timestamp = .now()) throws -> (BackupInfo, StoreCounts) {
        try StoreBackups.take(from: database, storePath: path, reason: reason, at: time)
    }

    /// Replaces this store's content with the backup at `path` (checked first), through
    /// SQLite's backup API so that other connections see the restored store. The restored
    /// store then pulls everything from the cloud before pushing (token 0, binding kept), so a
    /// sync neither resurrects deletions nor loses edits made elsewhere since the backup.
    public func restore(from path: String) throws {
        try StoreBackups.withPlainFile(path) { try restorePlain(from: $0) }
    }

    private func restorePlain(from path: String) throws {
        _ = try StoreBackups.check(path)
        let source: Database
        do {
            source = try Database(path: path, create: false, readOnly: true)
        } catch let error as SQLiteError {
            throw BackupError.notABackup(path: path, reason: error.message)
        }
        try StoreBackups.transfer(from: source, to: database, folder: FilePath.folder(of: self.path))
        try guarded {
            try Migrator().migrate(database, path: self.path)
            try database.execute("DELETE FROM sync_meta WHERE key = 'token'")
            try? database.execute("PRAGMA wal_checkpoint(TRUNCATE)")  // leave no store-sized WAL behind
        }
        notify(.everything)
    }
}
