import FoundationEssentials
import VocabCore
import VocabCloudAPI

/// Shared books through the Vocab server's API (version 1), by `DeviceRoute`:
///
///     share            ShareSettings → 201 OwnShare
///     shares           → [OwnShare]
///     unshare          → {"followers"}
///     follow           {"code"} → 201 FollowedBook
///     follows          → [FollowedBook]
///     unfollow         → {"unfollowed"}
///     followedRecords  ?after=N&limit=M → one record a line, as a pull
///     followChanges    ?limit=M {"known": {SHARE: TOKEN}} → share TAB a pull's line: each
///                      book's 'state' line, then its records after the token when it changed
///     catalog          ?q=&languages=&sort=followers|newest&limit= → [CatalogEntry]
///
/// A refusal names its `ShareRefusal` (`refusal` in the JSON), thrown as `CloudError.shareRefused`.
extension ServerAccount: SharingChannel {
    public func share(_ settings: ShareSettings) throws -> OwnShare {
        try request(.share, body: DeviceAPI.encode(settings), answer: OwnShare.self)
    }

    public func unshare(book: UUID) throws -> Int {
        try request(.unshare(book.lowercaseText), answer: DeviceAPI.Unshared.self).followers
    }

    public func shares() throws -> [OwnShare] {
        try request(.shares, answer: [OwnShare].self)
    }

    public func follow(code: String) throws -> FollowedBook {
        guard let code = ShareCode.read(code) else { throw CloudError.shareRefused(.noSuchShare) }
        return try request(.follow, body: DeviceAPI.encode(DeviceAPI.FollowRequest(code: code)), answer: FollowedBook.self)
    }

    public func unfollow(share: UUID) throws -> Bool {
        try request(.unfollow(share.lowercaseText), answer: DeviceAPI.Unfollowed.self).unfollowed
    }

    public func follows() throws -> [FollowedBook] {
        try request(.follows, answer: [FollowedBook].self)
    }

    public func pullShared(share: UUID, after token: Int64, limit: Int) throws -> [PulledRow] {
        let answer = try exchange(.followedRecords(share.lowercaseText, after: token, limit: limit))
        try Self.refuse(answer, server: connection.server)
        return try ServerSyncChannel.rows(answer.body, server: connection.server)
    }

    public func followChanges(known: [UUID: Int64], limit: Int) throws -> [FollowChange] {
        let body = DeviceAPI.encode(DeviceAPI.FollowTokens(known: Dictionary(known.map { ($0.key.lowercaseText, $0.value) }, uniquingKeysWith: { a, _ in a })))
        let answer = try exchange(.followChanges(limit: limit), headers: ["Content-Type": "application/json"], body: body)
        try Self.refuse(answer, server: connection.server)
        guard let rows = PullLines.decodeWithShares(answer.body) else {
            throw CloudError.unexpectedAnswer(server: connection.server, detail: "a followed book's line that is not a record")
        }
        return FollowChange.group(rows)
    }

    public func catalog(_ query: CatalogQuery) throws -> [CatalogEntry] {
        try request(.catalog(query), answer: [CatalogEntry].self)
    }
}
