import FoundationEssentials
import VocabCore
import VocabStore
import VocabSync
import VocabCloudAPI

/// A book shared: how it is shown, and the link a learner opens to follow it.
public struct SharedLink: Sendable {
    public var share: OwnShare
    /// `https://HOST/#follow=CODE`: opens the server's web app, which follows the book.
    public var link: String
}

/// What a learner shares and follows, as the cloud says.
public struct SharingOverview: Sendable {
    public var shares: [OwnShare]
    public var follows: [FollowedBook]
}

/// Where a learner's sharing runs: his store, the cloud's sharing functions for his device, and
/// the sync that brings the cloud up to his store. A device (the terminal, the window: through
/// its saved login) and the server of many (for a signed-in learner) each give one, and
/// `SharingSteps` are the same on both.
public protocol SharingPlace {
    func reading<T>(_ body: (Library) throws -> T) throws -> T
    func writing<T>(_ body: (Library) throws -> T) throws -> T
    /// Brings the cloud up to the store (it shares a book as the cloud has it).
    func syncFirst() throws
    /// What bringing the followed books in tells (a device's sync: its outcome).
    associatedtype Brought
    /// Brings the books the learner follows into the store (one just followed).
    func bringFollowedBooks() throws -> Brought
    /// One call of the cloud's sharing functions for the learner's device.
    func sharing<T>(_ body: (SharingChannel) throws -> T) throws -> T
}

/// The steps of sharing that hold wherever they run.
public enum SharingSteps {
    /// Shares the book `bookId` (or changes how it is listed), after a sync; a book the learner
    /// follows is refused (it is its owner's to share).
    public static func share(_ bookId: UUID, _ settings: ShareSettings, at place: some SharingPlace) throws -> OwnShare {
        if let name = try place.reading({ library in try library.store.followedBook(bookId).flatMap { _ in try library.book(id: bookId)?.name } }) {
            throw VocabError.bookIsShared(name)
        }
        try place.syncFirst()
        return try place.sharing { try $0.share(settings) }
    }

    /// Follows the share of `code`, then brings its book into the store.
    public static func follow<Place: SharingPlace>(code: String, at place: Place) throws -> (FollowedBook, Place.Brought) {
        let followed = try place.sharing { try $0.follow(code: code) }
        return (followed, try place.bringFollowedBooks())
    }

    /// Stops following the shared book `bookId` (or forgets that one which ended was shared):
    /// it goes from the store now, and from the learner's other devices at their next sync.
    /// False when the cloud found him no longer following it (it goes all the same).
    @discardableResult
    public static func unfollow(_ bookId: UUID, at place: some SharingPlace) throws -> Bool {
        guard let mark = try place.reading({ library in try library.sharedBooks().first { $0.bookId == bookId } }) else {
            throw SharingInputError.notFollowed(try place.reading { try $0.book(id: bookId)?.name } ?? bookId.lowercaseText)
        }
        let unfollowed = try place.sharing { try $0.unfollow(share: mark.share) }
        try place.writing { library in
            let store = library.store
            if mark.ended { try store.forgetEndedShare(share: mark.share) } else { try store.removeSharedBook(share: mark.share) }
        }
        return unfollowed
    }
}

/// A device's place: its store and its login to the Vocab server (connected when first needed).
final class DeviceSharingPlace: SharingPlace {
    let library: Library
    let sync: SyncService
    private var connected: CloudSession?

    init(library: Library, sync: SyncService) {
        self.library = library
        self.sync = sync
    }

    var session: CloudSession {
        get throws {
            if let connected { return connected }
            let made = try sync.connect()
            connected = made
            return made
        }
    }

    func reading<T>(_ body: (Library) throws -> T) throws -> T { try body(library) }
    func writing<T>(_ body: (Library) throws -> T) throws -> T { try body(library) }
    func syncFirst() throws { _ = try sync.run(try session, library: library) }
    /// A device's sync brings its followed books too.
    func bringFollowedBooks() throws -> SyncOutcome { try sync.run(try session, library: library) }
    func sharing<T>(_ body: (SharingChannel) throws -> T) throws -> T { try body(try session.account) }
}

/// Sharing books and following others' through the learner's Vocab server (the saved login):
/// every request is the device's, and the cloud holds the rules. A book is synced before it is
/// shared (the cloud shares what it has); a followed book arrives by the sync that follows.
public struct SharingService: Sendable {
    let sync: SyncService

    public init(sync: SyncService) {
        self.sync = sync
    }

    /// Shares the book `bookId` of `store` (after a sync, so the cloud has it as it is here),
    /// or changes how it is listed when it is shared already.
    public func share(_ bookId: UUID, in library: Library, listed: Bool?, sharer: String?, languages: String?) throws -> SharedLink {
        let place = DeviceSharingPlace(library: library, sync: sync)
        let shared = try SharingSteps.share(bookId, ShareSettings(book: bookId, listed: listed, sharer: sharer, languages: languages), at: place)
        return SharedLink(share: shared, link: Self.link(code: shared.code, server: try place.session.login.address.web ?? ""))
    }

    /// Stops sharing the book; returns how many followed it.
    public func unshare(_ bookId: UUID) throws -> Int {
        try sync.connect().account.unshare(book: bookId)
    }

    /// The books the learner shares (each with its link) and follows.
    public func overview() throws -> (SharingOverview, links: [String: String]) {
        let session = try sync.connect()
        let shares = try session.account.shares()
        let base = session.login.address.web ?? ""
        let links = Dictionary(shares.map { ($0.share, Self.link(code: $0.code, server: base)) }, uniquingKeysWith: { first, _ in first })
        return (SharingOverview(shares: shares, follows: try session.account.follows()), links)
    }

    /// The share of the book `bookId` with its link, if the learner shares it.
    public func sharedLink(of bookId: UUID) throws -> SharedLink? {
        let (overview, links) = try overview()
        let id = bookId.lowercaseText
        return overview.shares.first { $0.book == id }.map { SharedLink(share: $0, link: links[$0.share] ?? "") }
    }

    /// Follows the book under `codeOrLink`, then syncs so that it is here.
    public func follow(_ codeOrLink: String, library: Library) throws -> (FollowedBook, SyncOutcome) {
        guard let code = ShareCode.read(codeOrLink) else { throw SharingInputError.notACode(codeOrLink) }
        return try SharingSteps.follow(code: code, at: DeviceSharingPlace(library: library, sync: sync))
    }

    /// Stops following the shared book `bookId` (or forgets that one which ended was
    /// shared): it goes from this device now and from the learner's others at their next sync.
    public func unfollow(_ bookId: UUID, library: Library) throws {
        try SharingSteps.unfollow(bookId, at: DeviceSharingPlace(library: library, sync: sync))
    }

    /// The server's catalogue.
    public func catalog(_ query: CatalogQuery) throws -> [CatalogEntry] {
        try sync.connect().account.catalog(query)
    }

    /// The link that follows the book shared under `code` on the server at `server`.
    public static func link(code: String, server: String) -> String {
        server + "/#follow=" + code
    }
}

/// What a learner typed that is no share or no followed book.
public enum SharingInputError: UserFacingError, Equatable {
    case notACode(String)
    case notFollowed(String)

    public var category: ErrorCategory { .userInput }

    public var sentence: Sentence {
        switch self {
        case .notACode(let text):
            return Sentence("\"%@\" is not a share's code or link (26 letters and digits, or a link holding follow=CODE). Nothing was changed.",
                            .text(String(text.prefix(80))))
        case .notFollowed(let name):
            return Sentence("\"%@\" is not a book you follow. Nothing was changed.", .text(name))
        }
    }
}
