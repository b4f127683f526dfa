import FoundationEssentials
import VocabCore
import VocabStore

/// What bringing the followed books up to date did.
public struct SharedSyncReport: Sendable, Equatable {
    /// Records pulled from followed books.
    public var pulled = 0
    /// Books followed and up to date.
    public var following = 0
    /// Books whose owner stopped sharing them since: kept here as the learner's own, by name.
    public var ended: [String] = []
    /// Books no longer followed (the learner stopped, on another device): removed here.
    public var removed = 0
    public var skipped: [String] = []

    public init() {}
}

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
        let follows = try channel.follows()
        let marks = try store.sharedBooks()
        let followed = Set(follows.compactMap { UUID(text: $0.share) })
        for mark in marks where !mark.ended && !followed.contains(mark.share) {
            try store.removeSharedBook(share: mark.share)
            report.removed += 1
        }
        for book in follows {
            guard let share = UUID(text: book.share) else { continue }
            let mark = marks.first { $0.share == share }
            if mark?.ended == true { continue }  // ended here before: the learner's own now
            if book.ended {
                if mark != nil { try end(share, title: book.title, report: &report) }
                continue
            }
            do {
                if mark == nil || mark?.token ?? 0 < book.latest {
                    _ = try pull(share, sharer: book.sharer, after: mark?.token ?? 0, report: &report)
                }
                if try store.sharedWordCount(share: share) != book.words {
                    let live = try pull(share, sharer: book.sharer, after: 0, report: &report)
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

    /// Pulls the book's records after `token`, page by page, each applied with its token;
    /// returns the ids of the live words pulled.
    private func pull(_ share: UUID, sharer: String, after start: Int64, report: inout SharedSyncReport) throws -> Set<UUID> {
        var token = start
        var live = Set<UUID>()
        while true {
            let rows = try channel.pullShared(share: share, after: token, limit: pageSize)
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
        return live
    }
}
