import XCTest
import CSQLite
import VocabCore
@testable import VocabStore

/// The store's behaviour, run on `:memory:` here and on a real file by `FileStoreBehaviourTests`.
class StoreBehaviourTests: XCTestCase {
    var folder: TemporaryFolder!

    override func setUpWithError() throws {
        folder = try TemporaryFolder()
    }

    override func tearDown() {
        folder = nil  // removes the folder (XCTest keeps test cases alive until the run ends)
    }

    func makeStore() throws -> Store { try Store(path: ":memory:") }

    let t0 = Timestamp(milliseconds: 1_700_000_000_000)

    func testABookKeepsEveryFieldOfTheOriginalApp() throws {
        let store = try makeStore()
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3]
        let book = try store.addBook(BookDraft(name: " TOEIC ", explain: "exam", meaning: "my goal", image: png, coverWord: "abandon"), now: t0)
        let loaded = try store.book("toeic")
        XCTAssertEqual(loaded, book)
        XCTAssertEqual(loaded.name, "TOEIC")
        XCTAssertEqual(loaded.image, png)
        XCTAssertEqual(loaded.imageKind, .png)
        XCTAssertEqual(try store.book(book.id.uuidString), book, "a book can be named by its id")
    }

    func testBookNamesAreUniqueIgnoringCase() throws {
        let store = try makeStore()
        try store.addBook(BookDraft(name: "Äpfel"), now: t0)
        XCTAssertThrowsError(try store.addBook(BookDraft(name: "äPFEL"), now: t0)) { error in
            XCTAssertEqual(error as? VocabError, .duplicateBookName("äPFEL"))
        }
        let other = try store.addBook(BookDraft(name: "Birnen"), now: t0)
        XCTAssertThrowsError(try store.updateBook(id: other.id, BookChanges(name: "ÄPFEL"), now: t0))
        XCTAssertEqual(try store.bookSummaries().map(\.book.name), ["Äpfel", "Birnen"])
    }

    func testRenamingABookKeepsAllItsWords() throws {
        let store = try makeStore()
        let book = try store.addBook(BookDraft(name: "TOEIC"), now: t0)
        for text in ["abandon", "abide", "abolish"] {
            try store.addWord(WordDraft(word: text), toBook: book.id, now: t0)
        }
        try store.updateBook(id: book.id, BookChanges(name: "TOEIC 900"), now: t0)
        XCTAssertEqual(try store.words(WordFilter(bookId: try store.book("toeic 900").id)).map(\.word), ["abandon", "abide", "abolish"])
        XCTAssertThrowsError(try store.book("TOEIC"))
    }

    func testRenamingOnlyTheCaseOfABookIsAllowed() throws {
        let store = try makeStore()
        let book = try store.addBook(BookDraft(name: "toeic"), now: t0)
        XCTAssertEqual(try store.updateBook(id: book.id, BookChanges(name: "TOEIC"), now: t0).name, "TOEIC")
    }

    func testAWordKeepsEveryField() throws {
        let store = try makeStore()
        let book = try store.addBook(BookDraft(name: "B"), now: t0)
        let date = Timestamp(iso8601: "2024-03-01")!
        let draft = WordDraft(word: "happy", definition: "feeling joy", detail: "I am happy.\nSecond line",
                              pronunciation: "ˈhæpi", synonym: "glad", antonym: "unhappy", date: date, memorized: true)
        let word = try store.addWord(draft, toBook: book.id, now: t0)
        let loaded = try store.word("happy", inBook: nil)
        XCTAssertEqual(loaded, word)
        XCTAssertEqual(loaded.date, date)
        XCTAssertEqual(loaded.createdAt, t0)
        XCTAssertTrue(loaded.memorized)
        XCTAssertEqual(loaded.detail, "I am happy.\nSecond line")
    }

    func testAWordIsUniqueInItsBookByExactText() throws {
        let store = try makeStore()
        let book = try store.addBook(BookDraft(name: "B"), now: t0)
        try store.addWord(WordDraft(word: "Polish"), toBook: book.id, now: t0)
        try store.addWord(WordDraft(word: "polish"), toBook: book.id, now: t0)
        XCTAssertThrowsError(try store.addWord(WordDraft(word: " polish "), toBook: book.id, now: t0)) { error in
            XCTAssertEqual(error as? VocabError, .duplicateWord("polish", book: "B"))
        }
        XCTAssertEqual(try store.word("Polish", inBook: book.id).word, "Polish", "exact text wins")
    }

    func testAWordInSeveralBooksMustBeNamedWithItsBook() throws {
        let store = try makeStore()
        let a = try store.addBook(BookDraft(name: "A"), now: t0)
        let b = try store.addBook(BookDraft(name: "B"), now: t0)
        try store.addWord(WordDraft(word: "run"), toBook: a.id, now: t0)
        try store.addWord(WordDraft(word: "run"), toBook: b.id, now: t0)
        XCTAssertThrowsError(try store.word("run", inBook: nil)) { error in
            XCTAssertEqual(error as? VocabError, .ambiguousWord("run", books: ["A", "B"]))
        }
        XCTAssertEqual(try store.word("run", inBook: b.id).bookId, b.id)
        XCTAssertThrowsError(try store.word("walk", inBook: nil)) { error in
            XCTAssertEqual(error as? VocabError, .wordNotFound("walk", book: nil))
        }
    }

    func testEditingAndMovingAWordChecksItsNewBook() throws {
        let store = try makeStore()
        let a = try store.addBook(BookDraft(name: "A"), now: t0)
        let b = try store.addBook(BookDraft(name: "B"), now: t0)
        let word = try store.addWord(WordDraft(word: "run"), toBook: a.id, now: t0)
        try store.addWord(WordDraft(word: "run"), toBook: b.id, now: t0)
        XCTAssertThrowsError(try store.updateWord(id: word.id, WordChanges(bookId: b.id), now: t0))
        let later = t0.adding(seconds: 60)
        let edited = try store.updateWord(id: word.id, WordChanges(word: "ran", definition: "past of run", bookId: b.id), now: later)
        XCTAssertEqual(edited.bookId, b.id)
        XCTAssertEqual(edited.modifiedAt, later)
        XCTAssertEqual(try store.wordCount(WordFilter(bookId: a.id)), 0)
        XCTAssertEqual(try store.wordCount(WordFilter(bookId: b.id)), 2)
    }

    func testDeletingABookTakesItsWordsAndRemembersTheDeletions() throws {
        let store = try makeStore()
        let book = try store.addBook(BookDraft(name: "Gone"), now: t0)
        let kept = try store.addBook(BookDraft(name: "Kept"), now: t0)
        let words = try (0..<5).map { try store.addWord(WordDraft(word: "w\($0)"), toBook: book.id, now: t0) }
        try store.addWord(WordDraft(word: "stay"), toBook: kept.id, now: t0)
        XCTAssertEqual(try store.deleteBook(id: book.id, now: t0), 5)
        XCTAssertEqual(try store.wordCount(), 1)
        let graves = try store.database.integer("SELECT count(*) FROM tombstones WHERE id IN (\(words.map { "'\($0.id.storageText)'" }.joined(separator: ",")), '\(book.id.storageText)')")
        XCTAssertEqual(graves, 6)
    }

    func testSearchIgnoresCaseAcrossFields() throws {
        let store = try makeStore()
        let book = try store.addBook(BookDraft(name: "B"), now: t0)
        try store.addWord(WordDraft(word: "Straße", definition: "street"), toBook: book.id, now: t0)
        try store.addWord(WordDraft(word: "happy", synonym: "GLAD"), toBook: book.id, now: t0)
        XCTAssertEqual(try store.searchWords("STRASSE").map(\.word), ["Straße"], "full case folding")
        XCTAssertEqual(try store.searchWords("STREET").map(\.word), ["Straße"])
        XCTAssertEqual(try store.searchWords("glad").map(\.word), ["happy"])
        XCTAssertThrowsError(try store.searchWords("  "))
    }

    func testMemorizedFilter() throws {
        let store = try makeStore()
        let book = try store.addBook(BookDraft(name: "B"), now: t0)
        try store.addWord(WordDraft(word: "a", memorized: true), toBook: book.id, now: t0)
        try store.addWord(WordDraft(word: "b"), toBook: book.id, now: t0)
        XCTAssertEqual(try store.words(WordFilter(memorized: true)).map(\.word), ["a"])
        XCTAssertEqual(try store.words(WordFilter(memorized: false)).map(\.word), ["b"])
        XCTAssertEqual(try store.bookSummaries().first?.memorizedCount, 1)
    }

    func testAFailedMultiStepChangeLeavesNothingBehind() throws {
        let store = try makeStore()
        let book = try store.addBook(BookDraft(name: "B"), now: t0)
        XCTAssertThrowsError(try store.transaction {
            try store.addWord(WordDraft(word: "first"), toBook: book.id, now: t0)
            try store.addWord(WordDraft(word: "first"), toBook: book.id, now: t0)
        })
        XCTAssertEqual(try store.wordCount(), 0)
    }

    // MARK: Observation

    func testObserversHearOfTheFirstDataInAnEmptyStoreAfterItCommits() throws {
        let store = try makeStore()
        var changes: [StoreChange] = []
        let token = store.observe { changes.append($0) }
        let book = try store.addBook(BookDraft(name: "B"), now: t0)
        try store.addWord(WordDraft(word: "w"), toBook: book.id, now: t0)
        XCTAssertEqual(changes, [StoreChange(books: true, words: false), StoreChange(books: false, words: true)])
        token.cancel()
        try store.addWord(WordDraft(word: "x"), toBook: book.id, now: t0)
        XCTAssertEqual(changes.count, 2, "a cancelled observation hears nothing")
    }

    func testObserversAreToldInTheOrderTheyCameAndOneCancelledOnTheWayIsNot() throws {
        let store = try makeStore()
        var heard: [String] = []
        var second: ObservationToken?
        let first = store.observe { _ in
            heard.append("first")
            second?.cancel()
        }
        second = store.observe { _ in heard.append("second") }
        let third = store.observe { _ in heard.append("third") }
        try store.addBook(BookDraft(name: "B"), now: t0)
        XCTAssertEqual(heard, ["first", "third"])
        withExtendedLifetime((first, third)) {}
    }

    func testObserversHearNothingOfARolledBackChange() throws {
        let store = try makeStore()
        let book = try store.addBook(BookDraft(name: "B"), now: t0)
        var heard = 0
        let token = store.observe { _ in heard += 1 }
        _ = try? store.transaction {
            try store.addWord(WordDraft(word: "first"), toBook: book.id, now: t0)
            throw VocabError.emptyField(field: "test")
        }
        XCTAssertEqual(heard, 0)
        withExtendedLifetime(token) {}
    }

    func testObserversAreToldOnceForAWholeTransaction() throws {
        let store = try makeStore()
        let book = try store.addBook(BookDraft(name: "B"), now: t0)
        var heard = 0
        let token = store.observe { _ in heard += 1 }
        try store.transaction {
            for index in 0..<10 { try store.addWord(WordDraft(word: "w\(index)"), toBook: book.id, now: t0) }
            XCTAssertEqual(heard, 0, "nothing is told before the commit")
        }
        XCTAssertEqual(heard, 1)
        withExtendedLifetime(token) {}
    }

    /// The original app's bug: a game set up while the store was empty never saw the words
    /// that arrived afterwards, because it held a stale snapshot and had lost its observer.
    func testAGameSetUpOnAnEmptyStoreSeesWordsAddedAfterwards() throws {
        let store = try makeStore()
        let deck = try LiveWords(store: store)
        var refreshed = 0
        deck.onChange = { _ in refreshed += 1 }
        XCTAssertTrue(deck.words.isEmpty)

        let book = try store.addBook(BookDraft(name: "Arrived later"), now: t0)
        try store.transaction {
            for text in ["one", "two", "three"] { try store.addWord(WordDraft(word: text), toBook: book.id, now: t0) }
        }
        XCTAssertEqual(Set(deck.words.map(\.word)), ["one", "two", "three"])
        XCTAssertGreaterThanOrEqual(refreshed, 1)

        try store.deleteWord(id: try store.word("two", inBook: nil).id, now: t0)
        XCTAssertEqual(Set(deck.words.map(\.word)), ["one", "three"])
    }
}

/// The same behaviour on a real file. XCTest on Linux runs only the tests a class declares
/// itself (none it inherits), so each is declared again here; `testEveryBehaviourRunsOnAFile`
/// fails when one is added above and not here.
final class FileStoreBehaviourTests: StoreBehaviourTests {
    override func makeStore() throws -> Store {
        try Store.open(folder: folder.file("data"))
    }

    override func testABookKeepsEveryFieldOfTheOriginalApp() throws { try super.testABookKeepsEveryFieldOfTheOriginalApp() }
    override func testBookNamesAreUniqueIgnoringCase() throws { try super.testBookNamesAreUniqueIgnoringCase() }
    override func testRenamingABookKeepsAllItsWords() throws { try super.testRenamingABookKeepsAllItsWords() }
    override func testRenamingOnlyTheCaseOfABookIsAllowed() throws { try super.testRenamingOnlyTheCaseOfABookIsAllowed() }
    override func testAWordKeepsEveryField() throws { try super.testAWordKeepsEveryField() }
    override func testAWordIsUniqueInItsBookByExactText() throws { try super.testAWordIsUniqueInItsBookByExactText() }
    override func testAWordInSeveralBooksMustBeNamedWithItsBook() throws { try super.testAWordInSeveralBooksMustBeNamedWithItsBook() }
    override func testEditingAndMovingAWordChecksItsNewBook() throws { try super.testEditingAndMovingAWordChecksItsNewBook() }
    override func testDeletingABookTakesItsWordsAndRemembersTheDeletions() throws { try super.testDeletingABookTakesItsWordsAndRemembersTheDeletions() }
    override func testSearchIgnoresCaseAcrossFields() throws { try super.testSearchIgnoresCaseAcrossFields() }
    override func testMemorizedFilter() throws { try super.testMemorizedFilter() }
    override func testAFailedMultiStepChangeLeavesNothingBehind() throws { try super.testAFailedMultiStepChangeLeavesNothingBehind() }
    override func testObserversHearOfTheFirstDataInAnEmptyStoreAfterItCommits() throws { try super.testObserversHearOfTheFirstDataInAnEmptyStoreAfterItCommits() }
    override func testObserversAreToldInTheOrderTheyCameAndOneCancelledOnTheWayIsNot() throws { try super.testObserversAreToldInTheOrderTheyCameAndOneCancelledOnTheWayIsNot() }
    override func testObserversHearNothingOfARolledBackChange() throws { try super.testObserversHearNothingOfARolledBackChange() }
    override func testObserversAreToldOnceForAWholeTransaction() throws { try super.testObserversAreToldOnceForAWholeTransaction() }
    override func testAGameSetUpOnAnEmptyStoreSeesWordsAddedAfterwards() throws { try super.testAGameSetUpOnAnEmptyStoreSeesWordsAddedAfterwards() }

    func testEveryBehaviourRunsOnAFile() throws {
        let source = try String(contentsOfFile: #filePath, encoding: .utf8)
        let parts = source.components(separatedBy: "\nfinal class FileStoreBehaviourTests:")
        XCTAssertEqual(parts.count, 2)
        let declared = Set(parts[0].matches(of: #/\n    func (test\w+)\(/#).map { String($0.1) })
        let redeclared = Set(parts[1].matches(of: #/override func (test\w+)\(/#).map { String($0.1) })
        XCTAssertGreaterThan(declared.count, 10)
        XCTAssertEqual(declared.subtracting(redeclared), [], "run on a file too")
    }

    func testTheStoreFileUsesWALAndForeignKeys() throws {
        let store = try makeStore()
        XCTAssertEqual(try store.database.first("PRAGMA journal_mode") { $0.text(0) }, "wal")
        XCTAssertEqual(try store.database.integer("PRAGMA foreign_keys"), 1)
    }

    func testDataSurvivesReopening() throws {
        do {
            let store = try makeStore()
            let book = try store.addBook(BookDraft(name: "Persisted"), now: t0)
            try store.addWord(WordDraft(word: "kept"), toBook: book.id, now: t0)
        }
        let reopened = try makeStore()
        XCTAssertEqual(try reopened.word("kept", inBook: nil).word, "kept")
    }

    /// A word that is not in a named book is found missing from the index of texts, as a word
    /// that is there is found: it reads as few pages, however big the book (it once read all).
    func testAMissInANamedBookReadsNoMorePagesThanAHit() throws {
        do {
            let store = try makeStore()
            let text = "word,definition\n" + (0..<20_000).map { "w\($0)x,meaning \($0)" }.joined(separator: "\n") + "\n"
            var reader = try WordFileReader(ArrayByteStream(text), format: .csv)
            _ = try WordImporter(defaultBook: "Big", skipInvalid: false, now: t0).run(&reader, into: store)
            try store.addWord(WordDraft(word: "elsewhere"), toBook: try store.addBook(BookDraft(name: "Small"), now: t0).id, now: t0)
        }
        // Pages SQLite had to read from the file (a fresh connection: its cache is empty).
        func pagesRead(_ body: (Store) throws -> Void) throws -> Int32 {
            let store = try makeStore()
            let big = try store.book("Big").id
            _ = try store.word("w1x", inBook: big)  // the schema and the top of each index, paid once
            var current: Int32 = 0, highest: Int32 = 0
            sqlite3_db_status(store.database.handle, SQLITE_DBSTATUS_CACHE_MISS, &current, &highest, 1)
            try body(store)
            sqlite3_db_status(store.database.handle, SQLITE_DBSTATUS_CACHE_MISS, &current, &highest, 0)
            return current
        }
        let hit = try pagesRead { store in
            XCTAssertEqual(try store.word("w15000x", inBook: store.book("Big").id).word, "w15000x")
        }
        let caseless = try pagesRead { store in
            XCTAssertEqual(try store.word("W15000X", inBook: store.book("Big").id).word, "w15000x")
        }
        XCTAssertLessThanOrEqual(caseless, hit + 2, "a hit ignoring case read \(caseless) pages, an exact one \(hit)")
        let misses = try ["zzzznotaword", "elsewhere", "ELSEWHERE"].map { text in
            try pagesRead { store in
                XCTAssertThrowsError(try store.word(text, inBook: store.book("Big").id)) { error in
                    XCTAssertEqual(error as? VocabError, .wordNotFound(text, book: "Big"))
                }
            }
        }
        XCTAssertGreaterThan(hit, 0, "the hit was read from the file")
        for pages in misses { XCTAssertLessThanOrEqual(pages, hit + 2, "a miss read \(pages) pages, a hit \(hit)") }
    }
}

final class StoreObservationTests: XCTestCase {
    let t0 = Timestamp(iso8601: "2026-12-01T09:00:00Z")!

    func testARolledBackSavepointInsideACommittedTransactionIsNotReported() throws {
        let store = try Store(path: ":memory:")
        let book = try store.addBook(BookDraft(name: "B"), now: t0)
        var changes: [StoreChange] = []
        let token = store.observe { changes.append($0) }
        try store.transaction {
            try store.updateBook(id: book.id, BookChanges(explain: "e"), now: t0)
            _ = try? store.transaction {
                try store.addWord(WordDraft(word: "w"), toBook: book.id, now: t0)
                throw VocabError.emptyField(field: "test")
            }
        }
        XCTAssertEqual(changes.map(\.words), [false], "the word's savepoint rolled back")
        XCTAssertEqual(changes.map(\.books), [true])
        try store.addWord(WordDraft(word: "x"), toBook: book.id, now: t0)
        XCTAssertEqual(changes.last?.words, true, "a later change to the same table is still heard")
        withExtendedLifetime(token) {}
    }

    func testObserversHearOfReviewsAndGames() throws {
        let store = try Store(path: ":memory:")
        let book = try store.addBook(BookDraft(name: "B"), now: t0)
        let word = try store.addWord(WordDraft(word: "w"), toBook: book.id, now: t0)
        var changes: [StoreChange] = []
        let token = store.observe { changes.append($0) }
        var ids = TimeOrderedIDs()
        try store.recordReview(wordId: word.id, rating: .good, at: t0, source: .study, ids: &ids)
        XCTAssertEqual(changes.last?.reviews, true)
        try store.startGame(id: UUID.random(), mode: .choice, books: ["B"], planned: 1, configJSON: "{}", at: t0)
        XCTAssertEqual(changes.last?.games, true)
        withExtendedLifetime(token) {}
    }

    func testAnotherConnectionsCommitIsHeardAtTheNextCheck() throws {
        let folder = try TemporaryFolder()
        let window = try Store.open(folder: folder.path)
        let terminal = try Store.open(folder: folder.path)
        var heard: [StoreChange] = []
        let token = window.observe { heard.append($0) }
        XCTAssertFalse(try window.checkForOutsideChanges(), "nothing happened yet")
        try window.addBook(BookDraft(name: "Mine"), now: t0)
        XCTAssertFalse(try window.checkForOutsideChanges(), "its own commits are heard at once, not again")
        XCTAssertEqual(heard.count, 1)
        try terminal.addBook(BookDraft(name: "From the terminal"), now: t0)
        XCTAssertTrue(try window.checkForOutsideChanges())
        XCTAssertEqual(heard.last, .everything)
        XCTAssertFalse(try window.checkForOutsideChanges(), "heard once")
        withExtendedLifetime(token) {}
    }

    func testALiveListThatOutlivesItsStoreKeepsItsWords() throws {
        var store: Store? = try Store(path: ":memory:")
        let book = try XCTUnwrap(store).addBook(BookDraft(name: "B"), now: t0)
        try XCTUnwrap(store).addWord(WordDraft(word: "w"), toBook: book.id, now: t0)
        let live = try LiveWords(store: XCTUnwrap(store))
        store = nil
        XCTAssertEqual(live.words.map(\.word), ["w"])
    }
}
