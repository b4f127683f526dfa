import FoundationEssentials
import VocabCore
import VocabStore
import VocabSessions

/// `vocab maintain`: the upkeep `vocab` starts by itself, detached, after a command that
/// changed the store — indexing words that a bulk write (import, sync) left for later, and
/// the automatic backup when one is due.
enum MaintainCommand {
    static let command = Command(spec: CommandSpec(
        name: "maintain", abstract: "Index new words for search and take a backup if one is due.",
        options: [OptionSpec("auto", help: "Quiet, and only what is due (what vocab runs by itself after a change).")],
        discussion: """
            An import or sync of many words leaves their search indexing for later, so that it returns sooner; \
            until it is done, searches read those words directly (slower, never missing one). Vocab runs this \
            in the background after such a change; run it yourself to finish it now.
            """
    )) { arguments, context in
        let store = try context.store()
        let auto = arguments.flag("auto")
        // One indexer at a time: the automatic one gives way, one asked for waits its turn
        // (and then finds what the other left).
        let indexLock = try store.searchBacklog() > 0
            ? UpkeepLock(path: FilePath.parentFolder(of: store.path) + "/.indexing.lock", wait: !auto) : nil
        defer { indexLock?.release() }
        let waiting = indexLock == nil ? 0 : try store.searchBacklog()
        if waiting > 0 {
            let progress = auto ? nil : ProgressLine("Indexing for search…", unit: "words", console: context.console)
            var indexed: Int64 = 0
            try store.indexDeferredWords(progress: { passed in
                indexed = passed
                progress?.update(Int(passed))
            })
            progress?.finish()
            if !auto { context.console.print("Indexed \(plural(Int(indexed), "word")) for search.") }
        } else if !auto {
            context.console.print("No words wait to be indexed.")
        }
        let policy = context.paths.backupPolicy()
        if policy.automatic, let backup = try BackupCommands.takeAutomaticBackupIfDue(store, policy: policy, now: .now()), !auto {
            context.console.print("Backed up to \(backup.path) (one was due).")
        }
    }
}
