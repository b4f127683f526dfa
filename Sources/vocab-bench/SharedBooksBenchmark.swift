import Foundation
import VocabCore
import VocabStore
import VocabCloud
import VocabSync
import VocabCloudAPI

/// Shared books (issue 41), through the cloud's functions as a Vocab server runs them:
/// - storage: a book of `words` words followed by `followers` learners, against the same book
///   not shared (the growth of the cloud's tables and indexes; one copy per follower would be
///   `followers + 1` times);
/// - an edit of 10 words reaching a follower's device in one sync, against a sync of the
///   owner's other device taking up the same 10 changes (the reference: the same edit);
/// - the catalogue's search at `listed` listed books, against the look-up of one book by its
///   code (what following does).
struct SharedBooksBenchmark {
    var words = 5_000
    var followers = 1_000
    var listed = 10_000
    var rounds = 5

    init(_ arguments: [String]) throws {
        var rest = arguments[...]
        while let flag = rest.popFirst() {
            guard let text = rest.popFirst(), let value = Int(text), value > 0 else {
                throw BenchError.message("\(flag) needs a positive number (shared-books [--words N] [--followers N] [--listed N])")
            }
            switch flag {
            case "--words": words = value
            case "--followers": followers = value
            case "--listed": listed = value
            default: throw BenchError.message("shared-books takes --words, --followers and --listed, not \(flag)")
            }
        }
    }

    func run() throws {
        let environment = ProcessInfo.processInfo.environment
        guard let url = environment["VOCAB_TEST_PG_ADMIN"], let password = environment["VOCAB_TEST_PG_PASSWORD"] else {
            throw BenchError.message("no PostgreSQL: run scripts/bench.sh shared-books, which starts one")
        }
        let adminAddress = try ServerAddress(url: url)
        let admin = try PostgresConnection(adminAddress, password: password)
        try CloudSchema.install(on: admin)
        let tier = try BenchCloud.connect(adminAddress)
        let work = NSTemporaryDirectory() + "vocab-bench-shared-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: work) }
        let run = String(UInt32.random(in: 0...UInt32.max))

        // The owner: a book of `words` words, imported, synced from one device.
        let owner = "bso_\(run)"
        try CloudSchema.addUser(owner, password: "bench", on: admin)
        var ownerAccount = adminAddress
        ownerAccount.user = owner
        let ownerDevice = try BenchCloud.device(owner, password: "bench", on: tier)
        let ownerStore = try Store.open(folder: work + "/owner")
        let csv = work + "/words.csv"
        _ = try DataSet.writeCSV(rows: words, to: csv, seed: 41)
        var reader = try WordFileReader(try FileStream(path: csv), format: .csv)
        _ = try WordImporter(defaultBook: "Shared \(run)").run(&reader, into: ownerStore)
        let sizes = "SELECT (pg_total_relation_size('vocab.records') + pg_total_relation_size('vocab.shares') + pg_total_relation_size('vocab.follows'))::text"
        try admin.execute("CHECKPOINT")
        let before = Int(try admin.execute(sizes).first?.first.flatMap { $0 } ?? "") ?? 0
        _ = try SyncEngine(store: ownerStore, connection: tier, device: ownerDevice, account: ownerAccount).run()
        let alone = (Int(try admin.execute(sizes).first?.first.flatMap { $0 } ?? "") ?? 0) - before
        let book = try bookId(ownerStore, named: "Shared \(run)")
        let shared = try DatabaseSharing(connection: tier, device: ownerDevice).share(ShareSettings(book: book, listed: false, sharer: nil, languages: nil))

        // Followers: accounts and devices made as an administrator (what signing in would make;
        // 1,000 password hashes would only slow the bench), each following through the cloud's function.
        try admin.execute("""
            INSERT INTO vocab.accounts (owner, verifier) SELECT 'bsf_\(run)_' || g, 'bench' FROM generate_series(1, \(followers)) g;
            INSERT INTO vocab.devices (id, owner, label, secret_sha256)
            SELECT 'vd_bsf_\(run)_' || g, 'bsf_\(run)_' || g, 'bench-follower', sha256(convert_to('bench-secret', 'UTF8')) FROM generate_series(1, \(followers)) g
            """)
        // Each follow its own transaction, as followers come (one statement for all would keep
        // every version of the share's follower count alive until it ended).
        var followed = 0
        for g in 1...followers {
            followed += try tier.execute("SELECT share FROM vocab.follow($1, 'bench-secret', $2)", ["vd_bsf_\(run)_\(g)", shared.code]).count
        }
        BenchChecks.require(followed == followers, "shared books: \(followed) of \(followers) followers follow")
        let withFollowers = (Int(try admin.execute(sizes).first?.first.flatMap { $0 } ?? "") ?? 0) - before
        let storage = Double(withFollowers) / Double(max(alone, 1))
        print(String(format: "shared book of %d words followed by %d learners: the cloud's tables grew %.2f MiB, against %.2f MiB for the book alone: %.3fx (target <= 1.1x; a copy per follower would be %dx)",
                     words, followers, Double(withFollowers) / 1_048_576, Double(alone) / 1_048_576, storage, followers + 1))
        BenchChecks.target("shared book storage with \(followers) followers: \(String(format: "%.3f", storage))x the book alone", storage, atMost: 1.1)

        let follower = try editSync(owner: (ownerStore, ownerDevice, ownerAccount), code: shared.code, tier: tier, admin: admin, run: run, work: work)
        try catalogue(admin: admin, tier: tier, device: follower, code: shared.code, run: run)
    }

    /// The owner edits 10 words and syncs; then his other device and a follower's device each
    /// sync once, in turns (best of `rounds`). Returns the follower's device.
    private func editSync(owner: (store: Store, device: DeviceKey, account: ServerAddress), code: String, tier: PostgresConnection,
                          admin: PostgresConnection, run: String, work: String) throws -> DeviceKey {
        let other = try Store.open(folder: work + "/owner-other")
        let otherDevice = try BenchCloud.device(owner.account.user, password: "bench", on: tier)
        _ = try SyncEngine(store: other, connection: tier, device: otherDevice, account: owner.account).run()
        let learner = "bsl_\(run)"
        try CloudSchema.addUser(learner, password: "bench", on: admin)
        var learnerAccount = owner.account
        learnerAccount.user = learner
        let learnerDevice = try BenchCloud.device(learner, password: "bench", on: tier)
        let follower = try Store.open(folder: work + "/follower")
        _ = try DatabaseSharing(connection: tier, device: learnerDevice).follow(code: code)
        func followerSync() throws -> SyncReport {
            let engine = SyncEngine(store: follower, connection: tier, device: learnerDevice, account: learnerAccount)
            engine.sharing = DatabaseSharing(connection: tier, device: learnerDevice)
            return try engine.run()
        }
        let first = try followerSync()
        BenchChecks.require(first.shared?.pulled == words + 1, "shared books: the follower pulled \(first.shared?.pulled ?? 0) of \(words + 1) records")
        let clock = ContinuousClock()
        var own = Duration.seconds(3600), shared = Duration.seconds(3600)
        let changing = try owner.store.words().prefix(10 * rounds).map(\.id)
        for round in 0..<rounds {
            try owner.store.transaction {
                for id in changing.dropFirst(round * 10).prefix(10) {
                    try owner.store.updateWord(id: id, WordChanges(definition: "corrected \(round) \(UUID().uuidString)"))
                }
            }
            _ = try SyncEngine(store: owner.store, connection: tier, device: owner.device, account: owner.account).run()
            var ownReport = SyncReport(), sharedReport = SyncReport()
            var ownTime = Duration.zero, sharedTime = Duration.zero
            // In turns: the reference first in even rounds, the follower first in odd ones (the
            // first of the two finds the owner's push less warm in the cloud's cache).
            for side in round.isMultiple(of: 2) ? [0, 1] : [1, 0] {
                if side == 0 {
                    ownTime = try clock.measure { ownReport = try SyncEngine(store: other, connection: tier, device: otherDevice, account: owner.account).run() }
                } else {
                    sharedTime = try clock.measure { sharedReport = try followerSync() }
                }
            }
            BenchChecks.require(ownReport.pulled == 10 && sharedReport.shared?.pulled == 10,
                                "shared books: the 10 corrections reached the owner's other device (\(ownReport.pulled)) and the follower (\(sharedReport.shared?.pulled ?? 0))")
            own = min(own, ownTime)
            shared = min(shared, sharedTime)
        }
        // What a sync costs when nothing changed, each way (the fixed part of the difference).
        var idleOwn = Duration.seconds(3600), idleShared = Duration.seconds(3600), sharedPart = Duration.seconds(3600)
        for _ in 0..<rounds {
            idleOwn = min(idleOwn, try clock.measure { _ = try SyncEngine(store: other, connection: tier, device: otherDevice, account: owner.account).run() })
            idleShared = min(idleShared, try clock.measure { _ = try followerSync() })
            sharedPart = min(sharedPart, try clock.measure {
                _ = try SharedBooksSync(store: follower, channel: DatabaseSharing(connection: tier, device: learnerDevice)).run()
            })
        }
        print(String(format: "  (a sync with nothing new: the follower's %.1f ms, of which the followed books %.1f ms; the owner's other device %.1f ms)",
                     idleShared.milliseconds, sharedPart.milliseconds, idleOwn.milliseconds))
        let ratio = shared.milliseconds / max(own.milliseconds, 1e-9)
        print(String(format: "an edit of 10 words in a shared book of %d words: a follower's sync %.1f ms, the owner's other device's sync of the same 10 %.1f ms: %.2fx (target <= 1.2x; best of %d, in turns)",
                     words, shared.milliseconds, own.milliseconds, ratio, rounds))
        BenchChecks.target("a follower's sync of 10 corrections: \(String(format: "%.2f", ratio))x a sync of 10 own changes", ratio, atMost: 1.2)
        return learnerDevice
    }

    /// `listed` shares listed under names made of common words; a search for a word that ~1%
    /// of them hold (newest first, 20 at most) against following one book by its code again
    /// (`device` follows it already: the look-up alone).
    private func catalogue(admin: PostgresConnection, tier: PostgresConnection, device: DeviceKey, code: String, run: String) throws {
        try Self.list(listed, owner: "bsc_\(run)", on: admin)
        defer { _ = try? admin.execute("DELETE FROM vocab.shares WHERE owner = 'bsc_\(run)'") }
        try admin.execute("ANALYZE vocab.shares")
        let sharing = DatabaseSharing(connection: tier, device: device)
        // The search: 'toeic verbs' holds 1 in 100 of the names; the look-up: one book by its code.
        let query = CatalogQuery(text: "toeic verbs", languages: "", byFollowers: false, limit: 20)
        let found = try sharing.catalog(query)
        BenchChecks.require(found.count == 20 && found.allSatisfy { $0.title.hasPrefix("TOEIC Verbs") }, "shared books: the search found \(found.count) books")
        let clock = ContinuousClock()
        var searches: [Duration] = [], lookUps: [Duration] = []
        for round in 0..<200 {  // in turns, each first every other round
            if round.isMultiple(of: 2) {
                searches.append(try clock.measure { _ = try sharing.catalog(query) })
                lookUps.append(try clock.measure { _ = try sharing.follow(code: code) })
            } else {
                lookUps.append(try clock.measure { _ = try sharing.follow(code: code) })
                searches.append(try clock.measure { _ = try sharing.catalog(query) })
            }
        }
        let search = searches.sorted()[searches.count / 2], lookUp = lookUps.sorted()[lookUps.count / 2]
        let ratio = search.milliseconds / max(lookUp.milliseconds, 1e-9)
        print(String(format: "the catalogue's search at %d listed books: %.2f ms, one book's look-up by its code %.2f ms: %.2fx (target <= 2x; medians of 200, in turns)",
                     listed, search.milliseconds, lookUp.milliseconds, ratio))
        BenchChecks.target("catalogue search at \(listed) books: \(String(format: "%.2f", ratio))x one book's look-up", ratio, atMost: 2)
    }

    /// Lists `count` books of `owner` (no account of its own) under names made of common words:
    /// 'toeic verbs' matches about 1 in 100 of them.
    static func list(_ count: Int, owner: String, on admin: PostgresConnection) throws {
        try admin.execute("""
            INSERT INTO vocab.shares (id, owner, book, code, listed, sharer, languages, title, words, followers, created)
            SELECT gen_random_uuid(), '\(owner)', gen_random_uuid(), upper(substr(md5('\(owner)' || g), 1, 26)), true, 'Teacher ' || (g % 97),
                   (ARRAY['en-ko', 'en-ja', 'ko-en', 'en-zh'])[1 + g % 4],
                   (ARRAY['TOEIC', 'TOEFL', 'IELTS', 'Travel', 'Business', 'Kids', 'SAT', 'GRE', 'Daily', 'Medical'])[1 + g % 10] || ' '
                       || (ARRAY['Basic', 'Advanced', 'Verbs', 'Idioms', 'Phrasal', 'Words', 'Essentials', 'Review', 'Starter', 'Master'])[1 + (g / 10) % 10]
                       || ' ' || (g / 100),
                   50 + g % 2000, g % 300, now() - (g || ' minutes')::interval
            FROM generate_series(1, \(count)) g
            """)
    }

    private func bookId(_ store: Store, named name: String) throws -> UUID {
        guard let book = try store.book(named: name) else { throw BenchError.message("the imported book \(name) is missing") }
        return book.id
    }
}
