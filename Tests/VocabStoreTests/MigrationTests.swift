import XCTest
import CSQLite
import VocabCore
@testable import VocabStore

final class MigrationTests: XCTestCase {
    var folder: TemporaryFolder!

    override func setUpWithError() throws {
        folder = try TemporaryFolder()
    }

    override func tearDown() {
        folder = nil  // removes the folder (XCTest keeps test cases alive until the run ends)
    }

    /// A store file of schema `version`, filled by `seed` as that version's Vocab would have left
    /// it, then opened by this one (which upgrades it).
    private func storeUpgraded(from version: Int64, file: String, seed: (Database) throws -> Void) throws -> Store {
        let path = folder.file(file)
        do {
            let database = try Database(path: path)
            try Migrator().migrate(database, path: path, upTo: version)
            try seed(database)
        }
        return try Store(path: path)
    }

    func testANewStoreGetsTheLatestSchemaAndOurApplicationID() throws {
        let store = try Store(path: folder.file("new.sqlite"))
        XCTAssertEqual(try store.schemaVersion(), Migrations.latestVersion)
        XCTAssertEqual(try store.database.integer("PRAGMA application_id"), Migrations.applicationID)
    }

    func testAStoreOfThePreviousVersionIsUpgradedKeepingItsData() throws {
        // Version 0 is the empty file; each later step is checked against its predecessor here.
        // Step 13 rewrites data only (the look-up keys; see its own test).
        let path = folder.file("old.sqlite")
        for step in Migrations.steps where step.version != 13 {
            let previous = step.version - 1
            try? FileManager.default.removeItem(atPath: path)
            let database = try Database(path: path)
            try Migrator().migrate(database, path: path, upTo: previous)
            XCTAssertEqual(try database.integer("PRAGMA user_version"), previous)
            let schema = "SELECT group_concat(sql, ';') FROM (SELECT sql FROM sqlite_master ORDER BY name)"
            let before = try database.first(schema) { $0.text(0) }
            try Migrator().migrate(database, path: path)
            XCTAssertEqual(try database.integer("PRAGMA user_version"), Migrations.latestVersion)
            XCTAssertNotEqual(try database.first(schema) { $0.text(0) }, before, "step \(step.version) changes the schema")
        }
    }

    func testAVersion1StoreWithWordsUpgradesToStudyAndGames() throws {
        let store = try storeUpgraded(from: 1, file: "v1.sqlite") { database in
            try database.execute("""
                INSERT INTO books (id, name, name_key, created_at, modified_at) VALUES ('00000000-0000-4000-8000-000000000001', 'Old', 'old', 0, 0);
                INSERT INTO words (id, book_id, word, date, created_at, modified_at)
                VALUES ('00000000-0000-4000-8000-000000000002', '00000000-0000-4000-8000-000000000001', 'kept', 0, 0, 0);
                """)
        }
        XCTAssertEqual(try store.schemaVersion(), Migrations.latestVersion)
        let word = try store.word("kept", inBook: nil)
        var ids = TimeOrderedIDs()
        try store.recordReview(wordId: word.id, rating: .good, at: Timestamp(milliseconds: 0), source: .review, ids: &ids)
        XCTAssertNotNil(try store.schedule(wordId: word.id))
        // The store was backed up, as it was, before its schema changed.
        let backups = StoreBackups.list(in: folder.file("backups")).backups
        XCTAssertEqual(backups.map(\.reason), ["before-upgrade"])
        XCTAssertEqual(try StoreBackups.check(backups[0].path), StoreCounts(books: 1, words: 1, reviews: 0))
    }

    func testAVersion6StoreThatNeverSyncedDropsItsOutboxAndABoundOneKeepsIt() throws {
        for bound in [false, true] {
            let store = try storeUpgraded(from: 6, file: "v6-\(bound).sqlite") { database in
                try database.execute("""
                    INSERT INTO books (id, name, name_key, created_at, modified_at) VALUES ('00000000-0000-4000-8000-000000000001', 'Old', 'old', 0, 0);
                    INSERT INTO words (id, book_id, word, date, created_at, modified_at)
                    VALUES ('00000000-0000-4000-8000-000000000002', '00000000-0000-4000-8000-000000000001', 'kept', 0, 0, 0);
                    INSERT INTO outbox (kind, id) VALUES ('word', '00000000-0000-4000-8000-000000000002');
                    """)
                if bound { try database.execute("INSERT INTO sync_meta VALUES ('server', 'postgresql://x'), ('token', '0')") }
                XCTAssertEqual(try database.integer("SELECT count(*) FROM outbox"), 2, "the book by its trigger, the word by hand")
            }
            XCTAssertEqual(try store.database.integer("SELECT count(*) FROM outbox"), bound ? 2 : 0)
            try store.addBook(BookDraft(name: "New"), now: Timestamp(milliseconds: 0))
            XCTAssertEqual(try store.database.integer("SELECT count(*) FROM outbox"), bound ? 3 : 0, "the triggers ask too")
        }
    }

    func testAVersion7StoreGainsTheSearchIndexAndLookUpKeysWithoutQueuingItsWords() throws {
        let store = try storeUpgraded(from: 7, file: "v7.sqlite") { database in
            try database.execute("""
                INSERT INTO sync_meta VALUES ('server', 'postgresql://x'), ('token', '5');
                INSERT INTO sync_applying VALUES (1);
                INSERT INTO books (id, name, name_key, created_at, modified_at) VALUES ('00000000-0000-4000-8000-000000000001', 'Old', 'old', 0, 0);
                INSERT INTO words (id, book_id, word, definition, date, created_at, modified_at) VALUES
                    ('00000000-0000-4000-8000-000000000002', '00000000-0000-4000-8000-000000000001', 'Éclair', '크림을 채운 과자', 0, 0, 0),
                    ('00000000-0000-4000-8000-000000000003', '00000000-0000-4000-8000-000000000001', 'eclipse', '일식', 0, 0, 0);
                DELETE FROM sync_applying;
                """)
        }
        XCTAssertEqual(try store.searchWords("채운 과").map(\.word), ["Éclair"])
        XCTAssertEqual(try store.searchWords("ECLI").map(\.word), ["eclipse"])
        XCTAssertEqual(try store.word("eclair", inBook: nil).word, "Éclair")
        XCTAssertEqual(try store.database.integer("SELECT count(*) FROM outbox"), 0, "a key is not a change to push")
        XCTAssertEqual(try store.bookSummaries().map(\.wordCount), [2])
        store.assertDerivedDataMatchesWords()
    }

    func testAVersion8StoreKeepsItsOutboxInOrderAndStartsWithTheDefaultScheduling() throws {
        let store = try storeUpgraded(from: 8, file: "v8.sqlite") { database in
            try database.execute("""
                INSERT INTO sync_meta VALUES ('server', 'postgresql://x'), ('token', '5');
                INSERT INTO outbox (rowid, kind, id) VALUES (7, 'book', 'b'), (3, 'review', 'r');
                """)
        }
        XCTAssertEqual(try store.database.query("SELECT rowid, kind FROM outbox ORDER BY rowid") { "\($0.int(0)) \($0.text(1))" },
                       ["3 review", "7 book"])
        XCTAssertEqual(try store.learningSettings(), LearningSettings())
        try store.saveLearningSettings(parameters: nil, desiredRetention: 0.85, at: Timestamp(milliseconds: 1000))
        XCTAssertEqual(try store.database.integer("SELECT count(*) FROM outbox WHERE kind = 'settings'"), 1, "bound: queued for the cloud")
        // The outbox's triggers came back as they were: a derived column is no change to push.
        try store.database.execute("""
            INSERT INTO books (id, name, name_key, created_at, modified_at) VALUES ('00000000-0000-4000-8000-000000000001', 'B', 'b', 0, 0);
            INSERT INTO words (id, book, word, date, created_at, modified_at)
            SELECT '00000000-0000-4000-8000-000000000002', key, 'w', 0, 0, 0 FROM books;
            DELETE FROM outbox;
            UPDATE words SET scheduled = 1;
            """)
        XCTAssertEqual(try store.database.integer("SELECT count(*) FROM outbox"), 0)
        try store.database.execute("UPDATE words SET definition = 'd'")
        XCTAssertEqual(try store.database.integer("SELECT count(*) FROM outbox WHERE kind = 'word'"), 1)
    }

    /// Every earlier schema, filled as its Vocab left it (words in two books, reviews and
    /// schedules, a deletion, sync stamps and outbox rows, and reviews whose word is not here),
    /// comes to the store keyed by integers whole, and works on.
    func testEveryEarlierVersionUpgradesToIntegerKeysKeepingWordsReviewsAndSyncState() throws {
        let fruit = "00000000-0000-4000-8000-0000000000b1", colours = "00000000-0000-4000-8000-0000000000b2"
        let apple = "00000000-0000-4000-8000-0000000000a1", pear = "00000000-0000-4000-8000-0000000000a2"
        let red = "00000000-0000-4000-8000-0000000000a3", deleted = "00000000-0000-4000-8000-0000000000a9"
        let waiting = "00000000-0000-4000-8000-0000000000a8"
        let reviewIds = (1...5).map { "00000000-0000-4000-8000-00000000000\($0)" }
        // Every version before the integer keys (11); each upgrade also goes through every later step.
        for version in Int64(1)...10 {
            let store = try storeUpgraded(from: version, file: "every-v\(version).sqlite") { database in
                let key = version >= 8 ? ", word_key" : "", keyValue = { (word: String) in version >= 8 ? ", '\(word)'" : "" }
                try database.execute("""
                    INSERT INTO books (id, name, name_key, created_at, modified_at) VALUES
                        ('\(fruit)', 'Fruit', 'fruit', 1, 1), ('\(colours)', 'Colours', 'colours', 2, 2);
                    INSERT INTO words (id, book_id, word, definition, date, created_at, modified_at\(key)) VALUES
                        ('\(apple)', '\(fruit)', 'apple', '사과', 10, 10, 10\(keyValue("apple"))),
                        ('\(pear)', '\(fruit)', 'pear', '배', 11, 11, 11\(keyValue("pear"))),
                        ('\(red)', '\(colours)', 'red', '빨강', 12, 12, 12\(keyValue("red")));
                    INSERT INTO tombstones (id, kind, deleted_at) VALUES ('\(deleted)', 'word', 20);
                    """)
                if version >= 2 {
                    try database.execute("""
                        INSERT INTO reviews (id, word_id, reviewed_at, rating, duration_ms, source) VALUES
                            ('\(reviewIds[0])', '\(apple)', 1000, 3, 4000, 'study'), ('\(reviewIds[1])', '\(apple)', 2000, 1, NULL, 'game'),
                            ('\(reviewIds[2])', '\(pear)', 1500, 4, NULL, 'review'),
                            ('\(reviewIds[3])', '\(deleted)', 1600, 3, NULL, 'study'), ('\(reviewIds[4])', '\(waiting)', 1700, 2, NULL, 'study');
                        INSERT INTO schedules (word_id, state, step, stability, difficulty, due, last_review, reviews, lapses, first_review)
                        VALUES ('\(apple)', 3, 0, 1.5, 6.0, 86402000, 2000, 2, 1, 1000), ('\(pear)', 2, NULL, 20.0, 3.0, 1728001500, 1500, 1, 0, 1500);
                        """)
                }
                if version >= 3 {
                    try database.execute("""
                        INSERT INTO sync_meta VALUES ('server', 'postgresql://x'), ('token', '5');
                        UPDATE words SET stamps = '{"definition":[7,"dev"]}' WHERE id = '\(apple)';
                        INSERT OR REPLACE INTO outbox (kind, id) VALUES ('word', '\(apple)'), ('review', '\(reviewIds[2])');
                        """)
                }
            }
            let context = "from version \(version)"
            XCTAssertEqual(try store.schemaVersion(), Migrations.latestVersion, context)
            XCTAssertEqual(try store.bookSummaries().map { "\($0.book.name) \($0.wordCount)" }.sorted(), ["Colours 1", "Fruit 2"], context)
            let words = try store.words()
            XCTAssertEqual(words.map { "\($0.word) \($0.definition) \($0.bookId.lowercaseText)" }.sorted(),
                           ["apple 사과 \(fruit)", "pear 배 \(fruit)", "red 빨강 \(colours)"], context)
            XCTAssertEqual(try store.searchWords("appl").map(\.word), ["apple"], context)
            XCTAssertEqual(try store.word("APPLE", inBook: nil).id.lowercaseText, apple, context)
            XCTAssertTrue(try store.isTombstoned(try XCTUnwrap(UUID(uuidString: deleted))), context)
            let appleId = try XCTUnwrap(UUID(uuidString: apple)), pearId = try XCTUnwrap(UUID(uuidString: pear))
            if version >= 2 {
                let log = try store.reviewLog(wordId: appleId)
                XCTAssertEqual(log.map(\.id.lowercaseText), [reviewIds[0], reviewIds[1]], context)
                XCTAssertEqual(log.map(\.rating), [.good, .again], context)
                XCTAssertEqual(log.map(\.durationMs), [4000, nil], context)
                XCTAssertEqual(log.map(\.source), [.study, .game], context)
                XCTAssertEqual(try store.schedule(wordId: appleId)?.due, Timestamp(milliseconds: 86402000), context)
                XCTAssertEqual(try store.schedule(wordId: pearId)?.stability, 20.0, context)
                XCTAssertEqual(try store.reviewCount(), 3, "the deleted word's review is gone, \(context)")
                XCTAssertEqual(try store.database.query("SELECT id FROM sync_pending WHERE kind = 'review'") { $0.text(0) }, [reviewIds[4]],
                               "the review whose word is not here waits for it, \(context)")
            }
            if version >= 3 {
                let outbox = try store.database.query("SELECT kind || ' ' || id FROM outbox") { $0.text(0) }
                XCTAssertTrue(outbox.contains("word \(apple)") && outbox.contains("review \(reviewIds[2])"), "\(outbox), \(context)")
                XCTAssertFalse(outbox.contains("review \(reviewIds[4])"), "a review that waits for its word is not pushed, \(context)")
                XCTAssertEqual(try store.storedStamps(table: "words", id: appleId)["definition"]?.device, "dev", context)
                let pushed = try store.outbox(limit: 100).map(\.record).first { $0.id.lowercaseText == reviewIds[2] }
                XCTAssertEqual(pushed?.id.lowercaseText, reviewIds[2], context)
                XCTAssertEqual(pushed?.deleted, false, context)
                XCTAssertTrue(pushed?.body.contains(pear) == true && pushed?.body.contains("1500") == true, "\(String(describing: pushed)), \(context)")
            }
            store.assertDerivedDataMatchesWords()
            // It works on: a review, a deletion that takes the word's reviews along, a new word.
            var ids = TimeOrderedIDs()
            try store.recordReview(wordId: pearId, rating: .good, at: Timestamp(milliseconds: 5000), source: .review, ids: &ids)
            try store.deleteWord(id: appleId)
            XCTAssertEqual(try store.reviewCount(), version >= 2 ? 2 : 1, context)
            let fig = try store.addWord(WordDraft(word: "fig"), toBook: try XCTUnwrap(UUID(uuidString: fruit)))
            XCTAssertEqual(try store.word("fig", inBook: nil).id, fig.id, context)
            store.assertDerivedDataMatchesWords()
        }
    }

    /// Version 12 orders new words of the same date by the order they came (their key), no
    /// longer by id, from an index of the date alone.
    func testAVersion11StoreGivesNewWordsOfOneDateInTheOrderTheyCame() throws {
        let book = "00000000-0000-4000-8000-0000000000b1"
        let store = try storeUpgraded(from: 11, file: "v11.sqlite") { database in
            try database.execute("""
                INSERT INTO books (id, name, name_key, created_at, modified_at) VALUES ('\(book)', 'Fruit', 'fruit', 1, 1);
                INSERT INTO words (key, id, book, word, date, created_at, modified_at, word_key) VALUES
                    (1, '00000000-0000-4000-8000-0000000000a9', 1, 'cherry', 20, 1, 1, 'cherry'),
                    (2, '00000000-0000-4000-8000-0000000000a3', 1, 'banana', 20, 1, 1, 'banana'),
                    (3, '00000000-0000-4000-8000-0000000000a1', 1, 'apple', 30, 1, 1, 'apple'),
                    (4, '00000000-0000-4000-8000-0000000000a2', 1, 'date', 10, 1, 1, 'date');
                """)
        }
        XCTAssertEqual(try store.schemaVersion(), Migrations.latestVersion)
        XCTAssertEqual(try store.newWords(inBooks: nil, limit: 10).map(\.word), ["date", "cherry", "banana", "apple"])
        let plan = try store.database.query("""
            EXPLAIN QUERY PLAN SELECT key FROM words w WHERE w.memorized = 0 AND w.scheduled = 0 ORDER BY w.date, w.key LIMIT 5
            """) { $0.text(3) }
        XCTAssertTrue(plan.contains { $0.contains("words_new") } && !plan.contains { $0.contains("TEMP B-TREE") }, "\(plan)")
        store.assertDerivedDataMatchesWords()
    }

    func testVersion13MakesTheLookUpKeysAgainByVocabsOwnFolding() throws {
        // Keys as Foundation folded them: it kept U+1C80 (a case pair newer than its tables)
        // as it was; ASCII and Hangul keys are the same either way and stay untouched.
        let book = "00000000-0000-4000-8000-0000000000b1"
        let store = try storeUpgraded(from: 12, file: "v12.sqlite") { database in
            try database.execute("""
                INSERT INTO books (id, name, name_key, created_at, modified_at) VALUES ('\(book)', 'Old', 'old', 1, 1);
                INSERT INTO words (key, id, book, word, date, created_at, modified_at, word_key) VALUES
                    (1, '00000000-0000-4000-8000-0000000000c1', 1, 'Café', 1, 1, 1, 'cafe'),
                    (2, '00000000-0000-4000-8000-0000000000c2', 1, '학교', 1, 1, 1, '학교'),
                    (3, '00000000-0000-4000-8000-0000000000c3', 1, '\u{1C80}ера', 1, 1, 1, '\u{1C80}ера');
                """)
        }
        XCTAssertEqual(try store.schemaVersion(), Migrations.latestVersion)
        let keys = try store.database.query("SELECT word_key FROM words ORDER BY key") { $0.text(0) }
        XCTAssertEqual(keys, ["cafe", "학교", "вера"])
        XCTAssertEqual(try store.word("ВЕРА", inBook: nil).word, "\u{1C80}ера")
        XCTAssertEqual(try store.word("CAFE", inBook: nil).word, "Café")
        XCTAssertEqual(try store.outboxCount(), 0, "a key is local: nothing to send")
    }

    func testVersion21TalliesTheLogAndKeepsTheTallyAsReviewsComeAndGo() throws {
        let path = folder.file("v20.sqlite")
        var ids = TimeOrderedIDs()
        var words: [Word] = []
        let book: Book
        do {
            let store = try Store(path: path)
            book = try store.addBook(BookDraft(name: "Old"))
            for name in ["one", "two", "three"] { words.append(try store.addWord(WordDraft(word: name, definition: "x"), toBook: book.id)) }
            for (index, word) in words.enumerated() {
                for day in 0...index {
                    try store.recordReview(wordId: word.id, rating: .good, at: Timestamp(milliseconds: Int64(day) * 86_400_000 + 1),
                                           source: .review, ids: &ids)
                }
            }
            // The store as Vocab's schema 20 left it: a log of six reviews, and no tally.
            try store.database.execute("""
                DROP TRIGGER review_tally_insert; DROP TRIGGER review_tally_delete; DROP TABLE review_tally; PRAGMA user_version = 20
                """)
        }
        let store = try Store(path: path)
        XCTAssertEqual(try store.schemaVersion(), Migrations.latestVersion)
        XCTAssertEqual(try store.liveCounts().reviews, 6, "the upgrade counts the log once")
        XCTAssertEqual(try store.reviewCount(), 6)
        XCTAssertEqual(try store.mergeReviews(try store.reviewLog(wordId: words[2].id)), 0)
        XCTAssertEqual(try store.liveCounts().reviews, 6, "reviews the log holds already move nothing")
        try store.recordReview(wordId: words[0].id, rating: .again, at: Timestamp(milliseconds: 9 * 86_400_000), source: .study, ids: &ids)
        XCTAssertEqual(try store.liveCounts().reviews, 7)
        try store.deleteWord(id: words[2].id)
        XCTAssertEqual(try store.liveCounts().reviews, 4, "a word's reviews go with it")
        store.assertDerivedDataMatchesWords()
        _ = try store.deleteBook(id: book.id)
        XCTAssertEqual(try store.liveCounts().reviews, 0)
        store.assertDerivedDataMatchesWords()
    }

    func testANewStoreHasPagesOfTwiceSQLitesDefaultSize() throws {
        let store = try Store(path: folder.file("pages.sqlite"))
        XCTAssertEqual(try store.database.integer("PRAGMA page_size"), Int64(Migrator.newStorePageSize))
    }

    func testAStoreFromANewerVocabIsRefusedAndLeftUntouched() throws {
        let path = folder.file("future.sqlite")
        do {
            let store = try Store(path: path)
            try store.database.execute("PRAGMA user_version = 99")
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        XCTAssertThrowsError(try Store(path: path)) { error in
            guard case .newerSchema(_, 99, Migrations.latestVersion) = error as? StoreError else { return XCTFail("\(error)") }
            XCTAssertEqual((error as? StoreError)?.category.exitCode, 4)
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), before)
    }

    func testAnotherAppsDatabaseIsRefusedAndLeftUntouched() throws {
        let path = folder.file("other.sqlite")
        do {
            let database = try Database(path: path)
            try database.execute("CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('mine')")
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        XCTAssertThrowsError(try Store(path: path)) { error in
            guard case .notAVocabDatabase = error as? StoreError else { return XCTFail("\(error)") }
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), before)
    }

    func testAFileThatIsNotADatabaseIsRefusedAndLeftUntouched() throws {
        let path = folder.file("garbage.sqlite")
        let garbage = Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
        try garbage.write(to: URL(fileURLWithPath: path))
        XCTAssertThrowsError(try Store(path: path)) { error in
            XCTAssertEqual((error as? StoreError)?.category, .conflictOrCorruption, "\(error)")
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), garbage)
    }

    func testADataFolderThatCannotBeCreatedGivesAClearError() throws {
        let blocker = folder.file("file")
        try Data("x".utf8).write(to: URL(fileURLWithPath: blocker))
        XCTAssertThrowsError(try Store.open(folder: blocker + "/data")) { error in
            guard case .cannotCreateFolder = error as? StoreError else { return XCTFail("\(error)") }
        }
    }
}
