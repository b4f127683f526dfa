import FoundationEssentials
import VocabCore
import VocabSessions
#if canImport(Glibc)
import Glibc
#endif

/// `vocab backup`, `vocab backup list`, `vocab backup restore`: copies of the store, taken
/// automatically after writes and before anything destructive, checked, kept by a policy.
enum BackupCommands {
    private static let now = OptionSpec("now", value: "TIME", help: "The time to record (ISO 8601; default: now).")

    static let group = CommandGroup(name: "backup", abstract: "Backups of your words (taken automatically too):",
                                    commands: [list, restore, AccountBackupCommands.list, AccountBackupCommands.restore],
                                    defaultCommand: take)

    static let take = Command(spec: CommandSpec(
        name: "backup", abstract: "Take a backup now (and remove those the retention policy no longer keeps).",
        options: [now, OptionSpec("auto", help: "Only if one is due (what vocab runs by itself after a write); quiet.")],
        discussion: """
            Backups go to $VOCAB_HOME/backups (private to you), each checked after writing. One is taken by itself
            after a change when the newest is older than 30 minutes, and before deleting a book, importing into a
            store that has words, restoring, or upgrading the library. Kept: the 8 newest, then the newest of each of
            the last 7 days, 4 weeks and 12 months; all but the newest are gzip-compressed when that pays. config.json may set "backups": {"everyMinutes": 30, "recent": 8,
            "daily": 7, "weekly": 4, "monthly": 12}.
            """,
        examples: ["vocab backup", "vocab backup list", "vocab backup restore latest"]
    )) { arguments, context in
        let policy = context.paths.backupPolicy()
        let time = try context.now(arguments)
        let auto = arguments.flag("auto")
        let library = try context.library()
        if auto {
            _ = try Upkeep(policy: policy).run(on: library, now: time, wait: false, indexing: false)
            return
        }
        let (backup, counts, removed) = try BackupService.take(library, reason: "manual", policy: policy, now: time)
        context.console.print("Backed up \(plural(counts.books, "book")), \(plural(counts.words, "word")) and \(plural(counts.reviews, "review")) to \(backup.path) (\(ByteCount.describe(backup.bytes)), checked).")
        if !removed.isEmpty { context.console.print("Removed \(plural(removed.count, "older backup")) the retention policy no longer keeps.") }
    }

    static let list = Command(spec: CommandSpec(
        name: "backup list", abstract: "List the backups, newest first: time, why, size, books, words, reviews.",
        options: [.json]
    )) { arguments, context in
        let folder = try context.paths.backupFolder()
        let (backups, foreign) = BackupService.list(in: folder)
        let rows = backups.map { backup -> (BackupInfo, StoreCounts?) in (backup, try? BackupService.check(backup.path)) }
        if arguments.flag("json") {
            context.console.print(JSONValue.array(rows.map { backup, counts in
                .object([("time", .string(backup.takenAt.iso8601)), ("reason", .string(backup.reason)), ("path", .string(backup.path)),
                         ("bytes", .int(Int64(backup.bytes))), ("ok", .bool(counts != nil)),
                         ("books", counts.map { .int(Int64($0.books)) } ?? .null),
                         ("words", counts.map { .int(Int64($0.words)) } ?? .null),
                         ("reviews", counts.map { .int(Int64($0.reviews)) } ?? .null)])
            }).pretty)
            return
        }
        guard !backups.isEmpty else {
            context.console.print("No backups yet in \(folder): take one with `vocab backup` (one is also taken after your next change).")
            return
        }
        var table = TextTable(header: ["TAKEN (UTC)", "WHY", "SIZE", "BOOKS", "WORDS", "REVIEWS"])
        for (backup, counts) in rows {
            table.rows.append([backup.takenAt.iso8601, backup.reason, ByteCount.describe(backup.bytes),
                               counts.map { String($0.books) } ?? "damaged", counts.map { String($0.words) } ?? "",
                               counts.map { String($0.reviews) } ?? ""])
        }
        table.render().forEach(context.console.print)
        if !foreign.isEmpty { context.console.print("(Other files in \(folder), left alone: \(foreign.joined(separator: ", ")).)") }
    }

    static let restore = Command(spec: CommandSpec(
        name: "backup restore", abstract: "Put a backup back in place of the store (the store is backed up first).",
        arguments: [ArgumentSpec("BACKUP", help: "latest, a time (the newest backup at or before it, e.g. 2026-12-01T09:30), or a file.")],
        options: [.yes, now],
        discussion: """
            The backup is checked before it replaces anything. A store that syncs pulls everything from the cloud at its
            next sync before it pushes, so deletions made elsewhere since the backup stay deleted and newer edits win.
            A damaged store is moved aside (kept, never deleted) and the backup restored in its place.
            "latest" is the newest backup that passes its check. The restored store is then recorded as the newest
            backup itself, so a later "latest" is the state you went on with, never the one you replaced.
            """,
        examples: ["vocab backup restore latest", "vocab backup restore 2026-12-01T09:30 --yes"]
    )) { arguments, context in
        let backup = try BackupService.find(arguments.positionals[0], folder: try context.paths.backupFolder())
        let counts = try BackupService.check(backup.path)
        if !arguments.flag("yes") {
            let when = backup.takenAt.milliseconds > 0 ? "of \(backup.takenAt.iso8601) " : ""
            let question = "Replace the store with the backup \(when)(\(plural(counts.books, "book")), \(plural(counts.words, "word")))?"
            guard context.console.stdinIsTerminal else { throw CLIError.confirmationRequired(question) }
            guard context.console.confirm(question) else { throw CLIError.cancelled }
        }
        let (safety, aside, _) = try BackupService.restore(backup, dataFolder: try context.dataFolder(), now: try context.now(arguments))
        context.console.print("Restored \(plural(counts.books, "book")), \(plural(counts.words, "word")) and \(plural(counts.reviews, "review")) from \(backup.path).")
        if let safety { context.console.print("The store as it was is kept in \(safety.path).") }
        if let aside { context.console.print("The damaged store was moved aside to \(aside).") }
    }

    /// Starts `words` (e.g. `vocab maintain --auto`) as a detached process (its own session,
    /// no terminal), so the command that wrote does not wait for the backup or the indexing.
    static func startDetached(_ words: [String], environment: [String: String]) {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, 0x80)  // POSIX_SPAWN_SETSID (glibc): a session of its own
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for descriptor in Int32(0)...2 {
            posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY, 0)
        }
        let argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        _ = posix_spawn(&pid, "/proc/self/exe", &actions, &attributes, argv, envp)
    }
}
