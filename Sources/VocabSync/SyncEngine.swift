import FoundationEssentials
import VocabCore
import VocabCloudAPI
import VocabStore

/// Two-way incremental sync between the local store and the cloud, through a `SyncChannel`
/// (a Vocab server over HTTPS, or — on the server itself — the cloud's PostgreSQL functions).
///
/// Pull first, page by page (each page applied in one local transaction with its token), then
/// push the outbox in batches. A push (the server's `vocab.push`) runs under the user's own
/// account lock and only if the server's latest sequence number is still the one pulled;
/// otherwise it pulls again first.
/// So a push never overwrites a change it has not merged, and sequence numbers of one user
/// commit in order, so a token never skips a row. Any interruption leaves a state from which
/// the next sync loses nothing and duplicates nothing (pushes are idempotent upserts).
public final class SyncEngine {
    private let store: Store
    private let channel: SyncChannel
    private let pageSize: Int
    /// The largest batch a device sends (under what the cloud's push takes).
    static let maxBatchBytes = PushBounds.deviceBatchBytes
    private let batchSize: Int
    private let progress: (SyncProgress) -> Void
    /// Asked between pages and batches; when it says true the sync stops with
    /// `CloudError.cancelled`, keeping what already committed.
    public var isCancelled: () -> Bool = { false }
    /// Set only at the user's explicit, named request: sync a store bound to another account
    /// into this one (copying everything local into it) and bind it to this one.
    public var copyIntoAnotherAccount = false
    /// The same account as this device reached it before (through SQL): a store bound to it
    /// is bound to `account` instead, keeping what it pulled.
    public var formerAccount: String?
    /// Where the books the learner follows come from: brought up to date first (their words
    /// are here before his own reviews of them arrive). Nil: they are left as they are.
    public var sharing: SharingChannel?
    /// The learner's account, as the store is bound to it (its URL).
    private let account: String
    /// The learner's name, for messages.
    private let learner: String
    /// The seqs of this sync's own pushes stored after other devices' changes it had not yet
    /// pulled: the token stays before those changes, and the pull that follows skips these
    /// rows (they are this store's own, and it may have changed them again since).
    private var ownSeqs: [ClosedRange<Int64>] = []
    /// The account's counts as this sync's last push left them, when the cloud told them.
    private var countsAfterPush: CloudCounts?

    /// A sync through `channel` for the account whose URL is `account` (what the store is
    /// bound to) and whose learner is `learner`.
    public init(store: Store, channel: SyncChannel, account: String, learner: String, pageSize: Int = 2000,
                batchSize: Int = 2000, progress: @escaping (SyncProgress) -> Void = { _ in }) {
        self.store = store
        self.channel = channel
        self.account = account
        self.learner = learner
        self.pageSize = pageSize
        self.batchSize = batchSize
        self.progress = progress
    }

    /// A sync as the learner whose account is `account` (its address and user name).
    public convenience init(store: Store, channel: SyncChannel, account: ServerAddress, pageSize: Int = 2000,
                            batchSize: Int = 2000, progress: @escaping (SyncProgress) -> Void = { _ in }) {
        self.init(store: store, channel: channel, account: account.url, learner: account.user, pageSize: pageSize,
                  batchSize: batchSize, progress: progress)
    }

    /// Syncs. `known`: the account's counts as the caller just asked them (a server that asked
    /// whether there is anything to do), used instead of asking again; a push checks that the
    /// account is still where they say, so counts a little old cost a pull, never a change.
    public func run(known: CloudCounts? = nil) throws -> SyncReport {
        var report = SyncReport()
        let account = self.account
        if let former = formerAccount, try store.boundAccount() == former {
            try store.rebind(from: former, to: account)
        }
        if let bound = try store.boundAccount(), bound != account, !copyIntoAnotherAccount {
            throw CloudError.boundToAnotherAccount(bound: bound, loggedIn: account, user: learner)
        }
        if let sharing { report.shared = try SharedBooksSync(store: store, channel: sharing, pageSize: pageSize).run() }
        var counts = try exchange(account: account, known: known, report: &report)
        // The closing check, as Anki's sync ends: this store and the server must count the same
        // live books and words (and the server at least as many reviews: its log keeps those of
        // deleted words). If not, the store's sync state is damaged: pull everything again.
        if try !countsAgree(report, known: counts) {
            try store.forgetSyncProgress(for: account)
            report.repaired = true
            counts = try exchange(account: account, known: nil, report: &report)
            if try !countsAgree(report, known: counts) { throw CloudError.countsDisagree(detail: try countsText()) }
        }
        return report
    }

    /// Asks the account's counts, pulls what is new since the token (nothing to ask when the
    /// server's latest change is the token: a sync with nothing new is one request), then
    /// pushes, until a push finds nothing new on the server. A push stored after others'
    /// changes (none of its records among them) counts as new: their changes are pulled in the
    /// next round. Returns the counts asked first (or `known`, when given).
    private func exchange(account: String, known: CloudCounts?, report: inout SyncReport) throws -> CloudCounts {
        var token = try store.syncToken(for: account)
        let counts = try known ?? channel.counts()
        var latest: Int64? = counts.latest
        for _ in 0..<20 {
            if latest != token { token = try pull(after: token, upTo: latest, report: &report) }
            if try push(token: &token, serverLatest: latest, report: &report) { return counts }
            latest = nil  // the server moved on: pull again
        }
        throw CloudError.serverError("the server kept changing during the sync")
    }

    /// Whether the closing counts agree. Compared only when the server is exactly where this
    /// store pulled to (another device may have pushed meanwhile: the next sync checks; a token
    /// beyond the server's latest is damage), and
    /// not while pulled records wait or were skipped (live there, rightly not here). The
    /// counts `known` (asked as the sync began) serve when nothing moved since.
    private func countsAgree(_ report: SyncReport, known: CloudCounts) throws -> Bool {
        let local = try store.liveCounts()
        guard report.skipped.isEmpty, local.waiting == 0 else { return true }
        let token = try store.syncToken(for: account)
        let remote = token == known.latest ? known : try countsAfterPush.flatMap { $0.latest == token ? $0 : nil } ?? channel.counts()
        if token > remote.latest { return false }  // a token the server never gave: damaged
        guard token == remote.latest else { return true }
        return local.books == remote.books && local.words == remote.words && local.reviews <= remote.reviews
    }

    private func countsText() throws -> String {
        let local = try store.liveCounts(), remote = try channel.counts()
        return "this device has \(local.books) books, \(local.words) words, \(local.reviews) reviews; "
            + "the server \(remote.books), \(remote.words), \(remote.reviews)"
    }

    /// Pulls every record after `token` (`latestKnown`: the cloud's latest change, when asked
    /// just before); returns the new token.
    private func pull(after start: Int64, upTo latestKnown: Int64?, report: inout SyncReport) throws -> Int64 {
        var token = start
        while true {
            if isCancelled() { throw CloudError.cancelled }
            let rows = try channel.pull(after: token, limit: pageSize)
            guard !rows.isEmpty else { return token }
            var records: [SyncRecord] = []
            var pageToken = token
            for row in rows {
                guard !row.kind.isEmpty, row.seq > 0 else {
                    report.skipped.append("a record with missing columns")
                    continue
                }
                pageToken = max(pageToken, row.seq)
                if ownSeqs.contains(where: { $0.contains(row.seq) }) { continue }
                guard let id = UUID(text: row.id) else {
                    report.skipped.append("\(row.kind) \(row.id): malformed id")
                    continue
                }
                records.append(SyncRecord(kind: row.kind, id: id, deleted: row.deleted, body: row.body, seq: row.seq))
            }
            let summary = try store.applyRemote(records, token: pageToken)
            report.pulled += records.count
            report.skipped += summary.skipped
            report.waiting = summary.deferred
            token = pageToken
            progress(.pulled(report.pulled))
            // A page may end short of `pageSize` (the cloud bounds it in bytes too): only an
            // empty one, or the latest change the cloud named, says there is no more.
            if let latest = latestKnown, token >= latest { return token }
        }
    }

    /// Pushes the outbox; false when the server changed since the pull (pull again first):
    /// either nothing was stored, or the batches went in after the changes (the token stays
    /// before them, and their seqs are noted in `ownSeqs`).
    ///
    /// Batches go one after another with no wait between them: while the server stores one,
    /// this device clears the one before from its outbox and reads and writes out the next.
    /// Batches of new records may go further ahead (`channel.pushesAhead`): the next is sent
    /// before the one before it is answered, with the token that one will leave, and the cloud
    /// reads it while storing the one before. Answers are taken in order. A batch the server
    /// stored is cleared here after it, always in order, so an interruption in between leaves it
    /// in the outbox, to go again (an upsert changes nothing).
    private func push(token: inout Int64, serverLatest: Int64?, report: inout SyncReport) throws -> Bool {
        var entries = try store.outbox(limit: batchSize)
        guard !entries.isEmpty else { return true }
        // Into an account that had no rows at all nothing can conflict: a plain INSERT (a third
        // cheaper than the upsert). Should one still conflict, the batch is redone as an upsert.
        // Such a batch goes as lines, one record a line (what the cloud stores them from, record
        // by record), written here while the batch before is stored.
        var intoEmptyAccount = try token == 0 && (serverLatest ?? latestSeq()) == 0
        var batch = SyncEngine.fittedBatch(&entries, asLines: intoEmptyAccount)
        var stored: (entries: [OutboxEntry], token: Int64)?
        var afterOthers = false
        // Sent and not yet answered, oldest first: each batch, the token it was sent with, and
        // whether it went ahead of one not yet answered.
        var sent: [(entries: [OutboxEntry], token: Int64, ahead: Bool)] = []
        func clearStored() throws {
            guard let done = stored else { return }
            try store.clearOutbox(done.entries, token: done.token)
            stored = nil
            report.pushed += done.entries.count
            progress(.pushed(report.pushed))
        }
        /// Waits for the batches still on their way, whose answers no longer count (each was sent
        /// expecting one before it stored that was not: none of them is stored, or, stored, it
        /// goes again later as an upsert that changes nothing).
        func dropSent() {
            if !sent.isEmpty { channel.abandonPush() }
            sent = []
        }
        /// Sends `again` (a batch answered "not as sent") once more, and everything after it.
        func sendAgain(_ again: [OutboxEntry], asLines: Bool) {
            dropSent()
            entries = again
            batch = SyncEngine.fittedBatch(&entries, asLines: asLines)
        }
        while !entries.isEmpty || !sent.isEmpty {
            let ahead = intoEmptyAccount && !afterOthers ? max(channel.pushesAhead, 1) : 1
            if !entries.isEmpty, sent.count < ahead {
                if isCancelled() {
                    dropSent()
                    try clearStored()
                    throw CloudError.cancelled
                }
                let sentToken = sent.last.map { $0.token + Int64($0.entries.count) } ?? token
                do {
                    try channel.startPush(token: sentToken, batch: batch, intoEmptyAccount: intoEmptyAccount)
                } catch {
                    dropSent()
                    try? clearStored()  // the batch before is on the server: not sent again
                    throw error
                }
                sent.append((entries, sentToken, !sent.isEmpty))
                do {
                    try clearStored()
                    var next = try store.outbox(after: entries.last, limit: batchSize)
                    batch = SyncEngine.fittedBatch(&next, asLines: intoEmptyAccount)
                    entries = next
                } catch {
                    dropSent()
                    throw error
                }
                if sent.count < ahead, !entries.isEmpty { continue }
            }
            guard !sent.isEmpty else { continue }
            let oldest = sent.removeFirst()
            let outcome: PushOutcome
            do {
                outcome = try channel.finishPush()
            } catch {
                dropSent()
                throw error
            }
            switch outcome {
            case .retryAsUpsert:
                // The same records as a JSON array (the next batch is read again after them).
                intoEmptyAccount = false
                sendAgain(oldest.entries, asLines: false)
            case .accountMoved where oldest.ahead:
                // Sent ahead, it found the account not yet where the batch before left it: once more
                // now that it is (if the account really moved, it says so again).
                sendAgain(oldest.entries, asLines: intoEmptyAccount)
            case .accountMoved:
                dropSent()
                try clearStored()
                return false
            case .stored(let latest, let counts):
                countsAfterPush = counts
                let first = latest - Int64(oldest.entries.count) + 1
                let newToken: Int64
                if first == token + 1, !afterOthers {
                    newToken = latest
                } else {
                    // Stored after changes this store has not pulled: the token stays before them.
                    afterOthers = true
                    ownSeqs.append(first...latest)
                    newToken = token
                }
                try clearStored()
                stored = (oldest.entries, newToken)
                token = newToken
            }
        }
        try clearStored()
        return !afterOthers
    }

    /// The text of as many of `entries` as one push may carry (`maxBatchBytes`; book covers are
    /// large): halves `entries` until the batch fits.
    static func fittedBatch(_ entries: inout [OutboxEntry], asLines: Bool = false) -> String {
        var batch = batchText(entries, asLines: asLines)
        while entries.count > 1, batch.utf8.count > maxBatchBytes {
            entries = Array(entries.prefix(entries.count / 2))
            batch = batchText(entries, asLines: asLines)
        }
        return batch
    }

    private func latestSeq() throws -> Int64 {
        try channel.counts().latest
    }

    /// The batch as the JSON array `vocab.push` reads, `[{"k":kind,"i":id,"d":deleted,"b":body}, …]`
    /// (bodies are JSON already and go in as they are), or (`asLines`) the same objects one a
    /// line, as `vocab.push_lines` reads new records: a newline in a body can only be whitespace
    /// between its tokens, and becomes a space.
    static func batchText(_ entries: [OutboxEntry], asLines: Bool) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(entries.reduce(2) { $0 + $1.record.body.utf8.count + 80 })
        if !asLines { bytes.append(UInt8(ascii: "[")) }
        for (index, entry) in entries.enumerated() {
            if index > 0 { bytes.append(asLines ? 0x0A : UInt8(ascii: ",")) }
            bytes += #"{"k":""#.utf8
            bytes += entry.record.kind.utf8  // book, word or review: nothing to escape
            bytes += #"","i":""#.utf8
            bytes += entry.record.id.lowercaseText.utf8
            bytes += entry.record.deleted ? #"","d":true,"b":"#.utf8 : #"","d":false,"b":"#.utf8
            let bodyStart = bytes.count
            bytes += entry.record.body.utf8
            if asLines {
                for position in bodyStart..<bytes.count where bytes[position] == 0x0A || bytes[position] == 0x0D { bytes[position] = 0x20 }
            }
            bytes.append(UInt8(ascii: "}"))
        }
        if !asLines { bytes.append(UInt8(ascii: "]")) }
        return String(decoding: bytes, as: UTF8.self)
    }
}
