import FoundationEssentials
import VocabCloudAPI
import VocabCore

/// Shared books through the cloud's functions, for `device` (inside a Vocab server: the
/// device a request proved).
public struct DatabaseSharing: SharingChannel {
    public let connection: PostgresConnection
    public let device: DeviceKey

    public init(connection: PostgresConnection, device: DeviceKey) {
        self.connection = connection
        self.device = device
    }

    private var who: [String?] { [device.id, device.secret] }

    public func share(_ settings: ShareSettings) throws -> OwnShare {
        guard let book = UUID(text: settings.book) else { throw CloudError.shareRefused(.bookNotSynced) }
        let rows = try connection.execute("""
            SELECT share::text, code, listed::text, sharer, languages, title, words::text, followers::text
            FROM vocab.share_book($1, $2, $3::uuid, $4, $5::boolean, $6, $7)
            """, who + [book.lowercaseText, ShareCode.make(), settings.listed.map { $0 ? "true" : "false" }, settings.sharer, settings.languages])
        guard let row = rows.first, row.count == 8 else { throw CloudError.serverError("the cloud did not say how the book is shared") }
        return OwnShare(share: row[0] ?? "", book: book.lowercaseText, code: row[1] ?? "", listed: row[2] == "true", sharer: row[3] ?? "",
                        languages: row[4] ?? "", title: row[5] ?? "", words: Int(row[6] ?? "") ?? 0, followers: Int(row[7] ?? "") ?? 0)
    }

    public func unshare(book: UUID) throws -> Int {
        let rows = try connection.execute("SELECT vocab.unshare($1, $2, $3::uuid)::text", who + [book.lowercaseText])
        return Int(rows.first?.first.flatMap { $0 } ?? "") ?? 0
    }

    public func shares() throws -> [OwnShare] {
        try connection.execute("""
            SELECT share::text, book::text, code, listed::text, sharer, languages, title, words::text, followers::text
            FROM vocab.my_shares($1, $2)
            """, who).compactMap { row in
            guard row.count == 9 else { return nil }
            return OwnShare(share: row[0] ?? "", book: row[1] ?? "", code: row[2] ?? "", listed: row[3] == "true", sharer: row[4] ?? "",
                            languages: row[5] ?? "", title: row[6] ?? "", words: Int(row[7] ?? "") ?? 0, followers: Int(row[8] ?? "") ?? 0)
        }
    }

    public func follow(code: String) throws -> FollowedBook {
        guard let code = ShareCode.read(code) else { throw CloudError.shareRefused(.noSuchShare) }
        let rows = try connection.execute("SELECT share::text, book::text, title, sharer, words::text FROM vocab.follow($1, $2, $3)", who + [code])
        guard let row = rows.first, row.count == 5 else { throw CloudError.shareRefused(.noSuchShare) }
        return FollowedBook(share: row[0] ?? "", book: row[1] ?? "", title: row[2] ?? "", sharer: row[3] ?? "", ended: false,
                            words: Int(row[4] ?? "") ?? 0, latest: 0)
    }

    /// What the book shared under `code` is, asked before following it (nothing changes).
    public func preview(code: String) throws -> SharePreview {
        guard let code = ShareCode.read(code) else { throw CloudError.shareRefused(.noSuchShare) }
        let rows = try connection.execute("""
            SELECT title, sharer, words::text, followers::text, own::text, following::text FROM vocab.share_preview($1, $2, $3)
            """, who + [code])
        guard let row = rows.first, row.count == 6 else { throw CloudError.shareRefused(.noSuchShare) }
        return SharePreview(title: row[0] ?? "", sharer: row[1] ?? "", words: Int(row[2] ?? "") ?? 0, followers: Int(row[3] ?? "") ?? 0,
                            own: row[4] == "true", following: row[5] == "true")
    }

    public func unfollow(share: UUID) throws -> Bool {
        try connection.execute("SELECT vocab.unfollow($1, $2, $3::uuid)::text", who + [share.lowercaseText]).first?.first == "true"
    }

    public func follows() throws -> [FollowedBook] {
        try followChanges(known: [:], limit: 1).map(\.book)  // with no tokens: the books' states alone
    }

    public func pullShared(share: UUID, after token: Int64, limit: Int) throws -> [PulledRow] {
        try connection.execute("""
            SELECT r.kind, r.id::text, r.seq::text, r.deleted::text, r.body::text FROM vocab.pull_shared($1, $2, $3::uuid, $4::bigint, $5::integer) r
            """, who + [share.lowercaseText, String(token), String(limit)]).compactMap { row in
            guard row.count == 5 else { return nil }
            return PulledRow(kind: row[0] ?? "", id: row[1] ?? "", seq: row[2].flatMap { Int64($0) } ?? 0, deleted: row[3] == "true",
                             body: row[4] ?? "{}")
        }
    }

    public func followChanges(known: [UUID: Int64], limit: Int) throws -> [FollowChange] {
        let tokens = JSONValue.object(known.map { ($0.key.lowercaseText, .int($0.value)) }).compact
        let rows = try connection.execute("""
            SELECT c.share::text, c.kind, c.id::text, c.seq::text, c.deleted::text, c.body::text
            FROM vocab.follow_changes($1, $2, $3::jsonb, $4::integer) c
            """, who + [tokens, String(limit)])
        return FollowChange.group(rows.compactMap { row in
            guard row.count == 6 else { return nil }
            return (row[0] ?? "", PulledRow(kind: row[1] ?? "", id: row[2] ?? "", seq: row[3].flatMap { Int64($0) } ?? 0,
                                            deleted: row[4] == "true", body: row[5] ?? "{}"))
        })
    }

    public func catalog(_ query: CatalogQuery) throws -> [CatalogEntry] {
        try connection.execute("""
            SELECT share::text, code, title, sharer, languages, words::text, followers::text, extract(epoch FROM created)::bigint::text
            FROM vocab.catalog($1, $2, $3, $4, $5::boolean, $6::integer)
            """, who + [query.text, query.languages, query.byFollowers ? "true" : "false", String(min(max(query.limit, 1), 100))]).compactMap { row in
            guard row.count == 8 else { return nil }
            return CatalogEntry(share: row[0] ?? "", code: row[1] ?? "", title: row[2] ?? "", sharer: row[3] ?? "", languages: row[4] ?? "",
                                words: Int(row[5] ?? "") ?? 0, followers: Int(row[6] ?? "") ?? 0, created: Int64(row[7] ?? "") ?? 0)
        }
    }
}
