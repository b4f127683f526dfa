import FoundationEssentials
import VocabCore
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
        let library = try context.library()
        let auto = arguments.flag("auto")
        // One upkeep at a time, whichever front end runs it: the automatic one gives way, one
        // asked for waits its turn (and then finds what the other left).
        let progress = auto ? nil : ProgressLine("Indexing for search…", unit: "words", console: context.console)
        let report = try Upkeep(policy: context.paths.backupPolicy()).run(on: library, now: .now(), wait: !auto,
                                                                         progress: { progress?.update(Int($0)) })
        progress?.finish()
        guard !auto else { return }
        context.console.print(report.indexed > 0 ? "Indexed \(plural(Int(report.indexed), "word")) for search." : "No words wait to be indexed.")
        if let backup = report.backup { context.console.print("Backed up to \(backup.path) (one was due).") }
    }
}
