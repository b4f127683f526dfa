import Foundation
import VocabCore
import VocabStore
import VocabSync

/// `vocab sync`: two-way incremental sync with the cloud.
enum SyncCommand {
    static let command = Command(spec: CommandSpec(
        name: "sync", abstract: "Sync books, words, reviews and deletions with the cloud (both ways).",
        discussion: """
            Pulls what other devices changed since the last sync, merges it (newest field wins; a deletion wins over an
            edit; reviews add up), then pushes what changed here. Safe to interrupt: run it again and nothing is lost
            or duplicated. Needs `vocab login` first.
            """
    )) { _, context in
        let login = try CloudLogin.load(from: try CloudCommands.loginPath(context))
        let (status, checked) = AccountStatus.open(login)
        if let refusal = status.refusal { throw refusal }
        guard let login, let connection = checked else { throw CloudError.notLoggedIn }
        let store = try context.store()
        let console = context.console
        let live = console.stderrIsTerminal
        var lastPulled = 0, lastPushed = 0
        let engine = SyncEngine(store: store, connection: connection) { step in
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
        let report: SyncReport
        do {
            report = try engine.run()
        } catch let error as UserFacingError {
            if live { console.errorInPlace("") }
            throw SyncFailure(underlying: error)
        }
        if live { console.errorInPlace("") }
        console.print("Sync done with \(login.address.server): pulled \(report.pulled), pushed \(report.pushed).")
        if !report.skipped.isEmpty {
            console.print("Skipped \(plural(report.skipped.count, "malformed record")) from the server:")
            report.skipped.prefix(20).forEach { console.print("  \($0)") }
        }
        if report.waiting > 0 { console.print("\(plural(report.waiting, "word")) wait for their book to arrive.") }
    }
}

/// A sync that stopped part-way: says what failed and that nothing was lost.
struct SyncFailure: UserFacingError {
    let underlying: UserFacingError
    var category: ErrorCategory { .cloudUnavailable }
    var message: String {
        "Sync stopped: \(underlying.message) Nothing was lost: what finished is saved; run `vocab sync` again."
    }
}
