import FoundationEssentials
import VocabCore
import VocabSessions
import VocabCloudAPI

/// `vocab backup cloud`, `vocab backup cloud-restore`: the backups the cloud keeps of the
/// account (the words an Anki app's whole collection deleted when it replaced the account's).
enum AccountBackupCommands {
    static let list = Command(spec: CommandSpec(
        name: "backup cloud", abstract: "List the backups the cloud keeps of your account, newest first: id, time, why, words.",
        options: [.json],
        discussion: """
            When an Anki app uploads its whole collection to your account, the words it did not hold are deleted and
            kept first in a backup of the account, with their reviews (the cloud keeps the 3 newest). Bring one back
            with `vocab backup cloud-restore ID`.
            """,
        examples: ["vocab backup cloud", "vocab backup cloud --json"]
    )) { arguments, context in
        let backups = try SyncService(paths: context.paths).accountBackups()
        if arguments.flag("json") {
            context.console.print(JSONValue.array(backups.map { backup in
                .object([("id", .string(backup.id)), ("taken", .string(Timestamp(milliseconds: backup.taken * 1000).iso8601)),
                         ("reason", .string(backup.reason)), ("words", .int(Int64(backup.words))), ("bytes", .int(Int64(backup.bytes)))])
            }).pretty)
            return
        }
        guard !backups.isEmpty else {
            context.console.print("The cloud keeps no backup of your account.")
            return
        }
        var table = TextTable(header: ["ID", "TAKEN (UTC)", "WHY", "WORDS", "SIZE"])
        for backup in backups {
            table.rows.append([backup.id, Timestamp(milliseconds: backup.taken * 1000).iso8601, backup.reason, String(backup.words),
                               ByteCount.describe(backup.bytes)])
        }
        table.render().forEach(context.console.print)
    }

    static let restore = Command(spec: CommandSpec(
        name: "backup cloud-restore", abstract: "Bring one of the account's backups back: its words with their reviews.",
        arguments: [ArgumentSpec("ID", help: "The backup's id, from `vocab backup cloud`.")],
        discussion: """
            The words come back into your account as new words, in the books they were in (made again when gone),
            with their reviews and schedules; a word your account holds again (the same text in its book) takes the
            backup's fields. Your devices and Anki apps get them at their next sync. Bringing the same backup back
            again adds nothing twice.
            """,
        examples: ["vocab backup cloud-restore 0b0e3c5a-3c2e-4f7a-9d1e-5a6b7c8d9e0f"]
    )) { arguments, context in
        let restored = try SyncService(paths: context.paths).restoreAccountBackup(arguments.positionals[0])
        context.console.print("Brought back \(plural(restored.words, "word")) and \(plural(restored.reviews, "review")) into your account; "
                              + "`vocab sync` brings them here.")
    }
}
