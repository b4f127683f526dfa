import FoundationEssentials
import VocabCore
import VocabCloudAPI
import VocabStore

/// Brings the books a learner follows up to date in his store, from their owners' records:
/// each pulled after the token kept with it; a book whose live words the cloud counts
/// differently (words its owner moved to another book) is pulled whole again and the words it
/// no longer holds go; a book no longer followed goes; a book whose owner stopped sharing it
/// stays as the learner's own.
public struct SharedBooksSync {
    let store: Store
    let channel: SharingChannel
    let pageSize: Int

    public init(store: Store, channel: SharingChannel, pageSize: Int = 2_000) {
        self.store = store
        self.channel = channel
        self.pageSize = pageSize
    }

    public func run() throws -> SharedSyncReport {
        var report = SharedSyncReport()
        let marks = try store.sharedBooks()
        // One request: every followed book's state, and the changes of those pulled before.
        let known = Dictionary(marks.filter { !$0.ended }.map { ($0.share, $0.token) }, uniquingKeysWith: { first, _ in first })
        let changes = try channel.followChanges(known: known, limit: pageSize)
        let followed = Set(changes.compactMap { UUID(text: $0.book.share) })
        for mark in marks where !mark.ended && !followed.contains(mark.share) {
            try store.removeSharedBook(share: mark.share)
            report.removed += 1
        }
        for change in changes {
            let book = change.book
            guard let share = UUID(text: book.share) else { continue }
            let mark = marks.first { $0.share == share }
            if mark?.ended == true { continue }  // ended here before: the learner's own now
            if book.ended {
                if mark != nil { try end(share, title: book.title, report: &report) }
                continue
            }
            do {
                // Nothing changed in the book since it was pulled: nothing to ask (a word its owner
                // moved out changes the share's latest too).
                guard mark == nil || mark?.token ?? 0 < book.latest else {
                    report.following += 1
                    continue
                }
                _ = try pull(share, sharer: book.sharer, after: mark?.token ?? 0, first: change.rows, report: &report, until: book.latest)
                if try store.sharedWordCount(share: share) != book.words {
                    let live = try pull(share, sharer: book.sharer, after: 0, report: &report, until: book.latest)
                    try store.keepOnlySharedWords(share: share, live)
                }
                report.following += 1
            } catch CloudError.shareRefused(.shareEnded) {
                try end(share, title: book.title, report: &report)
            } catch CloudError.shareRefused(.notFollowing) {
                try store.removeSharedBook(share: share)
                report.removed += 1
            }
        }
        return report
    }

    private func end(_ share: UUID, title: String, report: inout SharedSyncReport) throws {
        try store.endSharedBook(share: share)
        report.ended.append(title)
    }

    /// Pulls the book's records after `token`, page by page, each applied with its token, and
    /// keeps `latest` (the share's latest change, which the pull covers) when it is further;
    /// returns the ids of the live words pulled.
    private func pull(_ share: UUID, sharer: String, after start: Int64, first: [PulledRow]? = nil, report: inout SharedSyncReport,
                      until latest: Int64) throws -> Set<UUID> {
        var token = start
        var live = Set<UUID>()
        var given = first  // the first page, when the changes came with the book's state
        while true {
            let rows = try given ?? channel.pullShared(share: share, after: token, limit: pageSize)
            given = nil
            guard let last = rows.last else { break }
            let records = rows.compactMap { row -> SyncRecord? in
                guard let id = UUID(text: row.id) else { return nil }
                if row.kind == "word" && !row.deleted { live.insert(id) }
                return SyncRecord(kind: row.kind, id: id, deleted: row.deleted, body: row.body, seq: row.seq)
            }
            let summary = try store.applyShared(share: share, sharer: sharer, records: records, token: last.seq)
            report.pulled += records.count
            report.skipped += summary.skipped
            token = last.seq
            if rows.count < pageSize { break }
        }
        if token < latest { _ = try store.applyShared(share: share, sharer: sharer, records: [], token: latest) }
        return live
    }
}
