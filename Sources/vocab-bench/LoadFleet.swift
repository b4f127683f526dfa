import Foundation
import VocabCore
import VocabStore
import VocabCloud
import VocabSync
import VocabCloudAPI

/// The devices of the load benchmarks: `users` learners made in the cloud, each with `devices`
/// stores of their own signed in through a Vocab server over HTTPS, every device starting from
/// its user's one book. `run` lets them all change and sync at once; `converge` syncs them in
/// turn and compares each with the cloud; `remove` takes the learners out again.
final class LoadFleet {
    let names: [String]
    let devices: Int
    let work: String
    let timeouts = CloudTimeouts(connectSeconds: 10, statementSeconds: 60, lockSeconds: 30)
    private(set) var logins: [[CloudLogin]] = []
    private let run: String

    /// Makes the learners (through `admin`) and signs their devices in at `base` (trusting `certificate`).
    init(users: Int, devices: Int, work: String, base: String, certificate: String, admin: PostgresConnection) throws {
        let run = UUID().uuidString.prefix(6).lowercased()
        self.run = run
        names = (0..<users).map { "load_\(run)_\($0)" }
        self.devices = devices
        self.work = work
        // A thousand sign-ins an hour from one test: the cap lifted for the run, then put back.
        let cap = try admin.execute("SELECT value FROM vocab.meta WHERE key = 'device_sign_ins_per_hour'").first?.first ?? nil
        try admin.execute("INSERT INTO vocab.meta VALUES ('device_sign_ins_per_hour', '1000000') ON CONFLICT (key) DO UPDATE SET value = excluded.value")
        defer {
            if let cap {
                _ = try? admin.execute("UPDATE vocab.meta SET value = $1 WHERE key = 'device_sign_ins_per_hour'", [cap])
            } else {
                _ = try? admin.execute("DELETE FROM vocab.meta WHERE key = 'device_sign_ins_per_hour'")
            }
        }
        for name in names {
            try CloudSchema.addUser(name, password: "load-\(run)", on: admin)
            logins.append(try (0..<devices).map { device in
                try ServerAccount.signIn(url: base, user: name, password: "load-\(run)", label: "load \(device)", caFile: certificate,
                                         timeouts: timeouts)
            })
        }
        for (user, deviceLogins) in logins.enumerated() {
            let first = try Store.open(folder: folder(user, 0))
            try first.addBook(BookDraft(name: "Book of user \(user)"))
            for (device, login) in deviceLogins.enumerated() {
                let store = device == 0 ? first : try Store.open(folder: folder(user, device))
                _ = try CloudLoadBenchmark.sync(store, login, timeouts)
            }
        }
    }

    func folder(_ user: Int, _ device: Int) -> String { "\(work)/u\(user)-d\(device)-\(run)" }

    /// Every device changes its store and syncs, on a thread of its own, for `seconds`;
    /// `meanwhile` runs on this thread as they do. Returns how long they ran, in seconds.
    @discardableResult
    func run(seconds: Int, results: LoadResults, meanwhile: () -> Void = {}) -> Double {
        let deadline = ContinuousClock.now + .seconds(seconds)
        var threads: [Thread] = []
        for (user, deviceLogins) in logins.enumerated() {
            for (device, login) in deviceLogins.enumerated() {
                let folder = folder(user, device), timeouts = timeouts
                let thread = Thread {
                    LoadDevice(user: user, device: device, folder: folder, login: login, timeouts: timeouts).run(until: deadline, results: results)
                }
                thread.stackSize = 1 << 20
                threads.append(thread)
            }
        }
        let started = ContinuousClock.now
        threads.forEach { $0.start() }
        meanwhile()
        while threads.contains(where: { !$0.isFinished }) { usleep(50_000) }
        let elapsed = started.duration(to: .now)
        return elapsed.seconds
    }

    /// Quiet: every device syncs twice in turn, then each must equal the cloud (read through
    /// `admin`), nothing duplicated, no user's rows with another. Returns the problems and the
    /// cloud's live words of the run.
    func converge(admin: PostgresConnection) throws -> (problems: [String], words: String) {
        var problems: [String] = []
        for (user, deviceLogins) in logins.enumerated() {
            let name = names[user]
            for _ in 0..<2 {
                for (device, login) in deviceLogins.enumerated() {
                    _ = try CloudLoadBenchmark.sync(try Store.open(folder: folder(user, device)), login, timeouts)
                }
            }
            let server = try admin.execute("""
                SELECT id::text, body->>'word', coalesce(body->>'definition', '') FROM vocab.records
                WHERE owner = $1 AND kind = 'word' AND NOT deleted ORDER BY id
                """, [name]).map { $0.map { $0 ?? "" }.joined(separator: "|") }
            let serverTexts = try admin.execute("""
                SELECT count(*)::text, count(DISTINCT body->>'word')::text FROM vocab.records
                WHERE owner = $1 AND kind = 'word' AND NOT deleted
                """, [name]).first ?? []
            if serverTexts.count == 2, serverTexts[0] != serverTexts[1] { problems.append("user \(user): duplicated words on the server") }
            for device in 0..<devices {
                let store = try Store.open(folder: folder(user, device))
                let local = try store.words().sorted { $0.id.lowercaseText < $1.id.lowercaseText }
                    .map { "\($0.id.lowercaseText)|\($0.word)|\($0.definition)" }
                if local != server { problems.append("user \(user) device \(device): \(local.count) words, the server \(server.count)") }
                if let foreign = try store.words().first(where: { !$0.word.hasPrefix("u\(user)-") }) {
                    problems.append("user \(user) device \(device) holds another user's word \(foreign.word)")
                }
            }
        }
        let foreignOnServer = try admin.execute("""
            SELECT count(*)::text FROM vocab.records WHERE kind = 'word' AND owner LIKE $1
                AND body->>'word' NOT LIKE 'u' || split_part(owner::text, '_', 3) || '-%'
            """, ["load_\(run)_%"]).first?.first ?? "?"
        if foreignOnServer != "0" { problems.append("\(foreignOnServer ?? "?") words on the server under another user") }
        let totalWords = try admin.execute("SELECT count(*)::text FROM vocab.records WHERE kind = 'word' AND NOT deleted AND owner LIKE $1",
                                           ["load_\(run)_%"]).first?.first ?? "?"
        return (problems, totalWords ?? "?")
    }

    /// Of the records `results` says the cloud acknowledged, those it does not hold (a deleted
    /// record's tombstone counts as held), by user.
    func lost(_ results: LoadResults, admin: PostgresConnection) throws -> (checked: Int, lost: [String]) {
        var checked = 0, lost: [String] = []
        for (user, acknowledged) in results.acknowledged {
            let held = Set(try admin.execute("SELECT id::text FROM vocab.records WHERE owner = $1", [names[user]]).compactMap { $0.first ?? nil })
            checked += acknowledged.count
            lost += acknowledged.subtracting(held).map { "user \(user): \($0)" }
        }
        return (checked, lost)
    }

    /// Takes the run's learners, their devices and records out of the cloud.
    func remove(admin: PostgresConnection) throws {
        for table in ["devices", "records", "accounts"] {
            try admin.execute("DELETE FROM vocab.\(table) WHERE owner LIKE $1", ["load_\(run)_%"])
        }
    }
}
