import FoundationEssentials
import VocabCore
import VocabSessions
import VocabCloudAPI

/// `vocab share`, `shares`, `follow`, `unfollow`, `catalog`, `copy`: books shared between
/// learners of one Vocab server. A shared book stays up to date for those who follow it;
/// their progress on it is their own.
enum SharingCommands {
    static let share = Command(spec: CommandSpec(
        name: "share", abstract: "Share a book: a link and a code others follow it by; it stays up to date for them.",
        arguments: [ArgumentSpec("BOOK", help: "The book, by name or id.")],
        options: [OptionSpec("catalog", value: "NAME", help: "List it in the server's catalogue too, shared by NAME (never your account's name)."),
                  OptionSpec("languages", value: "PAIR", help: "Its languages in the catalogue, e.g. en-ko."),
                  OptionSpec("unlist", help: "Take it out of the catalogue (its link and code still work)."),
                  OptionSpec("stop", help: "Stop sharing it: its link and code stop working at once; followers keep a copy that no longer updates."),
                  .json],
        discussion: """
            Syncs first, so followers get the book as it is here. Followers see your additions, corrections and deletions
            at their next sync; their reviews and memorised marks stay theirs, and they never see your reviews or other books.
            You see how many follow, never who. Share the same book again to change how it is listed.
            """,
        examples: ["vocab share TOEIC", "vocab share TOEIC --catalog \"Ms. Kim\" --languages en-ko", "vocab share TOEIC --stop"]
    )) { arguments, context in
        let service = SharingService(sync: try SyncService(paths: context.paths))
        let library = try context.library()
        let book = try library.book(arguments.positionals[0])
        if arguments.flag("stop") {
            let followers = try service.unshare(book.id)
            let kept = followers == 1 ? "Its 1 follower keeps" : "Its \(followers) followers keep"
            context.console.print("\"\(book.name)\" is no longer shared; its link and code no longer work. \(kept) a copy that no longer updates.")
            return
        }
        // Listed with --catalog, taken out with --unlist, else as it is (a new share: not listed).
        let listed: Bool? = arguments.flag("unlist") ? false : arguments.value("catalog") != nil ? true : nil
        let shared = try service.share(book.id, in: library, listed: listed, sharer: arguments.value("catalog"), languages: arguments.value("languages"))
        if arguments.flag("json") {
            context.console.print(JSONValue.object(Self.json(shared.share) + [("link", .string(shared.link))]).pretty)
            return
        }
        context.console.print("Shared \"\(book.name)\" (\(plural(shared.share.words, "word"))).")
        context.console.print("Link: \(shared.link)")
        context.console.print("Code: \(ShareCode.grouped(shared.share.code))  (vocab follow CODE)")
        context.console.print(shared.share.listed ? "Listed in the catalogue as shared by \(shared.share.sharer)." : "Not listed in the catalogue.")
    }

    static let shares = Command(spec: CommandSpec(
        name: "shares", abstract: "List the books you share (with how many follow) and the books you follow.",
        options: [.json]
    )) { arguments, context in
        let service = SharingService(sync: try SyncService(paths: context.paths))
        let (overview, links) = try service.overview()
        if arguments.flag("json") {
            context.console.print(JSONValue.object([
                ("shares", .array(overview.shares.map { .object(Self.json($0) + [("link", .string(links[$0.share] ?? ""))]) })),
                ("follows", .array(overview.follows.map { book in
                    .object([("share", .string(book.share)), ("title", .string(book.title)), ("sharer", .string(book.sharer)),
                             ("words", .int(Int64(book.words))), ("ended", .bool(book.ended))])
                })),
            ]).pretty)
            return
        }
        context.console.print(overview.shares.isEmpty ? "You share no books." : "You share:")
        for share in overview.shares {
            context.console.print("  \(share.title)  \(plural(share.words, "word")), \(plural(share.followers, "follower"))"
                                  + (share.listed ? ", listed as shared by \(share.sharer)" : ""))
            context.console.print("    \(links[share.share] ?? "")")
        }
        context.console.print(overview.follows.isEmpty ? "You follow no books." : "You follow:")
        for book in overview.follows {
            let by = book.sharer.isEmpty ? "" : " by \(book.sharer)"
            context.console.print("  \(book.title)\(by)  \(plural(book.words, "word"))" + (book.ended ? " (no longer shared: yours now)" : ""))
        }
    }

    static let follow = Command(spec: CommandSpec(
        name: "follow", abstract: "Follow a shared book by its link or code: it arrives here and stays up to date.",
        arguments: [ArgumentSpec("CODE", help: "The book's code (26 letters and digits) or its link.")],
        discussion: "The book is read-only here: study it, play it, mark words memorised; your progress is your own. "
            + "`vocab copy BOOK` makes a copy you can change.",
        examples: ["vocab follow 3F9K-7QWE-…", "vocab follow \"https://vocab.example.org/#follow=3F9K7QWE…\""]
    )) { arguments, context in
        let service = SharingService(sync: try SyncService(paths: context.paths))
        let library = try context.library()
        let (book, _) = try service.follow(arguments.positionals[0], library: library)
        let by = book.sharer.isEmpty ? "" : " shared by \(book.sharer)"
        let name = try UUID(text: book.book).flatMap { try library.book(id: $0)?.name } ?? book.title
        context.console.print("Following \"\(name)\"\(by): \(plural(book.words, "word")), here now and kept up to date at each sync.")
    }

    static let unfollow = Command(spec: CommandSpec(
        name: "unfollow", abstract: "Stop following a shared book: it goes from this device (and your others at their next sync).",
        arguments: [ArgumentSpec("BOOK", help: "The shared book, by name or id.")],
        discussion: "Copy it first (`vocab copy BOOK`) to keep its words as a book of your own."
    )) { arguments, context in
        let service = SharingService(sync: try SyncService(paths: context.paths))
        let library = try context.library()
        let book = try library.book(arguments.positionals[0])
        try service.unfollow(book.id, library: library)
        context.console.print("No longer following \"\(book.name)\".")
    }

    static let catalog = Command(spec: CommandSpec(
        name: "catalog", abstract: "Search the server's catalogue of shared books.",
        arguments: [ArgumentSpec("WORDS", optional: true, variadic: true, help: "Words of the book's name (each may be the start of a word).")],
        options: [OptionSpec("languages", value: "PAIR", help: "Only books in these languages, e.g. en-ko."),
                  OptionSpec("popular", help: "Most followed first (else newest first)."),
                  OptionSpec("limit", value: "N", help: "At most N books (1 to 100; \(CatalogQuery.defaultLimit) by default)."), .json],
        examples: ["vocab catalog", "vocab catalog toeic --popular"]
    )) { arguments, context in
        let service = SharingService(sync: try SyncService(paths: context.paths))
        let limitText = arguments.value("limit") ?? String(CatalogQuery.defaultLimit)
        guard let limit = Int(limitText), (1...100).contains(limit) else { throw UsageError.invalidValue(option: "limit", value: limitText, expected: "a number from 1 to 100") }
        let entries = try service.catalog(CatalogQuery(text: arguments.positionals.joined(separator: " "), languages: arguments.value("languages") ?? "",
                                                       byFollowers: arguments.flag("popular"), limit: limit))
        if arguments.flag("json") {
            context.console.print(JSONValue.array(entries.map { entry in
                .object([("code", .string(entry.code)), ("title", .string(entry.title)), ("sharer", .string(entry.sharer)),
                         ("languages", .string(entry.languages)), ("words", .int(Int64(entry.words))), ("followers", .int(Int64(entry.followers)))])
            }).pretty)
            return
        }
        guard !entries.isEmpty else {
            context.console.print("No shared book in the catalogue matches.")
            return
        }
        for entry in entries {
            let languages = entry.languages.isEmpty ? "" : " [\(entry.languages)]"
            context.console.print("\(entry.title)\(languages) by \(entry.sharer): \(plural(entry.words, "word")), \(plural(entry.followers, "follower"))")
            context.console.print("  vocab follow \(ShareCode.grouped(entry.code))")
        }
    }

    static let copy = Command(spec: CommandSpec(
        name: "copy", abstract: "Copy a book (a shared one, say) into a new book of your own, with your progress on its words.",
        arguments: [ArgumentSpec("BOOK", help: "The book, by name or id.")],
        options: [OptionSpec("name", value: "NAME", help: "The copy's name (default: the book's name with \"(copy)\").")],
        examples: ["vocab copy TOEIC", "vocab copy TOEIC --name \"My TOEIC\""]
    )) { arguments, context in
        let library = try context.library()
        let book = try library.book(arguments.positionals[0])
        let name = arguments.value("name") ?? "\(book.name) (copy)"
        let (copy, count) = try BookActions.copy(book.id, named: name, in: library, now: try context.now())
        context.console.print("Copied \"\(book.name)\" to \"\(copy.name)\" (\(plural(count, "word"))): yours to change.")
    }

    static let commands = [share, shares, follow, unfollow, catalog, copy]

    private static func json(_ share: OwnShare) -> [(String, JSONValue)] {
        [("share", .string(share.share)), ("book", .string(share.book)), ("code", .string(share.code)), ("title", .string(share.title)),
         ("listed", .bool(share.listed)), ("sharer", .string(share.sharer)), ("languages", .string(share.languages)),
         ("words", .int(Int64(share.words))), ("followers", .int(Int64(share.followers)))]
    }
}
