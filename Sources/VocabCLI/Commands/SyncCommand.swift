import FoundationEssentials
import VocabCore
import VocabCloudAPI
import VocabSessions

/// `vocab sync`: two-way incremental sync with the cloud.
enum SyncCommand {
    static let command = Command(spec: CommandSpec(
        name: "sync", abstract: "Sync books, words, reviews, deletions and scheduling settings with the cloud (both ways).",
        options: [OptionSpec("copy-into-account", value: "USER",
                             help: "Copy this folder's books and words into USER's account (the one logged in) and sync with it from now on.")],
        discussion: """
            Pulls what other devices changed since the last sync, merges it (newest field wins; a deletion wins over an
            edit; reviews add up), then pushes what changed here. Safe to interrupt: run it again and nothing is lost
            or duplicated. Needs `vocab login` first.
            A data folder belongs to the account it first synced with: logged in as another account, sync refuses,
            unless --copy-into-account names that account (this folder's words are then copied into it).
            """
    )) { arguments, context in
        let service = try SyncService(paths: context.paths)
        let console = context.console
        let live = console.stderrIsTerminal
        var lastPulled = 0, lastPushed = 0
        let copyInto = arguments.value("copy-into-account")
        if let copyInto {
            let user = try service.loggedInUser()
            guard copyInto == user else { throw SyncCopyRefused(named: copyInto, loggedIn: user) }
        }
        let cloud = try service.connect()
        let library = try context.library()
        let outcome: SyncOutcome
        do {
            outcome = try service.run(cloud, library: library, copyIntoAnotherAccount: copyInto != nil) { step in
                switch step {
                case .pulled(let count): lastPulled = count
                case .pushed(let count): lastPushed = count
                }
                if live {
                    console.errorInPlace("Syncing… pulled \(lastPulled.grouped), pushed \(lastPushed.grouped)")
                } else {
                    console.print("… pulled \(lastPulled), pushed \(lastPushed)")
                }
            }
        } catch {
            if live { console.errorInPlace("") }
            throw error
        }
        if live { console.errorInPlace("") }
        let report = outcome.report
        console.print("Sync done with \(outcome.server.server): pulled \(report.pulled), pushed \(report.pushed).")
        if !report.skipped.isEmpty {
            console.print("Skipped \(plural(report.skipped.count, "malformed record")) from the server:")
            report.skipped.prefix(20).forEach { console.print("  \($0)") }
        }
        if report.repaired {
            console.print("This device and the cloud counted differently, so everything was pulled again; they agree now.")
        }
        if report.waiting > 0 { console.print("\(plural(report.waiting, "word")) wait for their book to arrive.") }
        if let shared = report.shared {
            if shared.pulled > 0 { console.print("Books you follow: \(plural(shared.pulled, "change")) from their owners.") }
            for name in shared.ended {
                console.print("\"\(name)\" is no longer shared by its owner: it is your own now and no longer updates.")
            }
            if shared.removed > 0 { console.print("\(plural(shared.removed, "book")) you stopped following on another device went from here.") }
            if !shared.skipped.isEmpty { console.print("Skipped \(plural(shared.skipped.count, "malformed record")) of books you follow.") }
        }
    }
}

/// `--copy-into-account` named an account other than the one logged in.
struct SyncCopyRefused: TerminalOnlyError {
    let named: String
    let loggedIn: String?
    var category: ErrorCategory { .userInput }
    var english: String {
        guard let loggedIn else { return "Not logged in: run `vocab login` as \(named) first. Nothing was changed." }
        return "--copy-into-account names \(named), but you are logged in as \(loggedIn). Nothing was changed."
    }
}
