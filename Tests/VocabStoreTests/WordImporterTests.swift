import XCTest
import VocabCore
@testable import VocabStore

final class WordImporterTests: XCTestCase {
    let t0 = Timestamp(milliseconds: 1_700_000_000_000)

    private func importText(_ text: String, into store: Store, format: WordFileFormat = .csv, book: String? = "B",
                            skipInvalid: Bool = false) throws -> ImportSummary {
        var reader = try WordFileReader(ArrayByteStream(text), format: format)
        return try WordImporter(defaultBook: book, skipInvalid: skipInvalid, now: t0).run(&reader, into: store)
    }

    func testImportingTheSameFileTwiceChangesNothingTheSecondTime() throws {
        let store = try Store(path: ":memory:")
        let text = "word,definition,memorized\napple,사과,yes\nbanana,바나나,no\n"
        XCTAssertEqual(try importText(text, into: store), ImportSummary(added: 2, createdBooks: ["B"]))
        XCTAssertEqual(try importText(text, into: store), ImportSummary(unchanged: 2))
        XCTAssertEqual(try store.wordCount(), 2)
        XCTAssertTrue(try store.word("apple", inBook: nil).memorized)
    }

    func testAStoreThatNeverSyncedKeepsNoOutboxAndBindingQueuesEverything() throws {
        let store = try Store(path: ":memory:")
        _ = try importText("word\napple\nbanana\n", into: store)
        let book = try store.addBook(BookDraft(name: "Mine"), now: t0)
        let word = try store.addWord(WordDraft(word: "cherry"), toBook: book.id, now: t0)
        var ids = TimeOrderedIDs()
        try store.recordReview(wordId: word.id, rating: .good, at: t0, source: .review, ids: &ids)
        try store.deleteWord(id: try store.word("apple", inBook: nil).id, now: t0)
        XCTAssertEqual(try store.database.integer("SELECT count(*) FROM outbox"), 0)
        XCTAssertEqual(try store.database.integer("SELECT count(*) FROM outbox_word_ranges"), 0)
        _ = try store.syncToken(for: "server")
        let entries = try store.outbox(limit: 100)
        XCTAssertEqual(entries.filter { !$0.record.deleted }.count, 5, "2 books, 2 words, 1 review")
        XCTAssertEqual(entries.filter(\.record.deleted).count, 1, "apple travels as a deletion")
        // Once bound, every change waits in the outbox again.
        try store.addWord(WordDraft(word: "date"), toBook: book.id, now: t0)
        XCTAssertEqual(try store.outbox(limit: 100).count, 7)
    }

    func testImportedWordsWaitForThePushAsOneRangeAndNoneIsLostOrDoubled() throws {
        let store = try Store(path: ":memory:")
        _ = try store.syncToken(for: "server")
        XCTAssertEqual(try importText("word\napple\nbanana\ncherry\n", into: store), ImportSummary(added: 3, createdBooks: ["B"]))
        XCTAssertEqual(try store.database.integer("SELECT count(*) FROM outbox WHERE kind = 'word'"), 0, "no row per word")
        XCTAssertEqual(try store.database.integer("SELECT count(*) FROM outbox_word_ranges"), 1)
        XCTAssertEqual(try store.outboxCount(), 4, "three words and their book")
        // A word edited or deleted after the import is counted once, as its own change.
        _ = try store.updateWord(id: try store.word("apple", inBook: nil).id, WordChanges(detail: "red"), now: t0)
        try store.deleteWord(id: try store.word("banana", inBook: nil).id, now: t0)
        XCTAssertEqual(try store.outboxCount(), 4)
        let entries = try store.outbox(limit: 10)
        XCTAssertEqual(entries.count, 4)
        XCTAssertEqual(entries.filter { $0.record.deleted }.count, 1, "banana travels as a deletion")
        XCTAssertEqual(Set(entries.map(\.record.id)).count, 4)
        try store.clearOutbox(entries, token: 1)
        XCTAssertEqual(try store.outboxCount(), 0)
        XCTAssertEqual(try store.database.integer("SELECT count(*) FROM outbox_word_ranges"), 0, "a pushed range is gone")
    }

    /// The push reads the next batch before it clears the one the server took: paging through
    /// outbox rows and then import ranges must give every change.
    func testPagingThroughRowsAndRangesGivesEveryChangeOnce() throws {
        let store = try Store(path: ":memory:")
        _ = try store.syncToken(for: "server")
        _ = try importText("word\n" + (0..<7).map { "a\($0)\n" }.joined(), into: store)
        _ = try importText("word\n" + (0..<5).map { "b\($0)\n" }.joined(), into: store, book: "C")
        _ = try store.updateWord(id: try store.word("a3", inBook: nil).id, WordChanges(detail: "edited"), now: t0)
        XCTAssertEqual(try store.outboxCount(), 14, "12 words, 2 books")
        var seen: [UUID] = []
        var batch = try store.outbox(limit: 3)
        while !batch.isEmpty {
            let next = try store.outbox(after: batch.last, limit: 3)
            seen += batch.map(\.record.id)
            try store.clearOutbox(batch, token: 1)
            batch = next
        }
        XCTAssertEqual(Set(seen).count, 14, "nothing lost")
        // The word edited after its import went from the outbox, and again with its range once
        // that row was cleared: pushing it twice is harmless (an upsert of the same fields).
        XCTAssertEqual(seen.count, 15)
        XCTAssertEqual(try store.outboxCount(), 0)
        XCTAssertEqual(try store.database.integer("SELECT count(*) FROM outbox_word_ranges"), 0)
    }

    func testAChangeMadeWhileAPushRunsStaysInTheOutbox() throws {
        let store = try Store(path: ":memory:")
        _ = try store.syncToken(for: "server")
        let book = try store.addBook(BookDraft(name: "B"), now: t0)
        let first = try store.addWord(WordDraft(word: "first"), toBook: book.id, now: t0)
        let last = try store.addWord(WordDraft(word: "last"), toBook: book.id, now: t0)
        let read = try store.outbox(limit: 10)
        XCTAssertEqual(read.count, 3)
        // Both the first and the last entry read change again before the push is cleared.
        _ = try store.updateWord(id: last.id, WordChanges(detail: "changed"), now: t0)
        _ = try store.updateWord(id: first.id, WordChanges(detail: "changed"), now: t0)
        try store.clearOutbox(read, token: 1)
        XCTAssertEqual(Set(try store.outbox(limit: 10).map(\.record.id)), [first.id, last.id])
    }

    /// Rows without an id go in batches; what a batch could not insert (its text was taken, by
    /// a word already here or one before it in the file) updates that word, as row by row.
    func testABigFileGoesInBatchesWithTheOutcomeOfOneRowAtATime() throws {
        let store = try Store(path: ":memory:")
        let book = try store.addBook(BookDraft(name: "B"), now: t0)
        try store.addWord(WordDraft(word: "w5", definition: "old"), toBook: book.id, now: t0)
        let rows = (0..<300).map { index -> String in
            switch index {
            case 50: return "w10,again"     // the same batch as w10
            case 150: return ",no word"     // rejected
            case 200: return "w20,later"    // a later batch than w20
            default: return "w\(index),d\(index)"
            }
        }
        let summary = try importText("word,definition\n" + rows.joined(separator: "\n") + "\n", into: store, skipInvalid: true)
        XCTAssertEqual(summary.added, 296)
        XCTAssertEqual(summary.updated, 3, "w5, w10 and w20")
        XCTAssertEqual(summary.rejected.map(\.line), [152])
        XCTAssertEqual(try store.wordCount(), 297)
        XCTAssertEqual(try store.word("w5", inBook: nil).definition, "d5")
        XCTAssertEqual(try store.word("w10", inBook: nil).definition, "again")
        XCTAssertEqual(try store.word("w20", inBook: nil).definition, "later")
        let inOrder = try store.database.query("SELECT word FROM words ORDER BY key") { $0.text(0) }
        XCTAssertEqual(inOrder, ["w5"] + (0..<300).filter { ![5, 50, 150, 200].contains($0) }.map { "w\($0)" }, "keys follow the file")
        XCTAssertEqual(Set(try store.words().map(\.id)).count, 297)
        store.assertDerivedDataMatchesWords()
        let again = try importText("word,definition\n" + rows.joined(separator: "\n") + "\n", into: store, skipInvalid: true)
        XCTAssertEqual(again.added, 0)
        XCTAssertEqual(again.updated, 4, "w10 and w20 twice each: the first row of each sets it back, the second again")
        XCTAssertEqual(again.unchanged, 295)
    }

    func testProgressCountsRowsReadEveryThousand() throws {
        let store = try Store(path: ":memory:")
        var reader = try WordFileReader(ArrayByteStream("word\n" + (0..<2500).map { "w\($0)" }.joined(separator: "\n") + "\n"), format: .csv)
        var progress: [Int] = []
        let summary = try WordImporter(defaultBook: "B", now: t0).run(&reader, into: store) { progress.append($0) }
        XCTAssertEqual(progress, [1000, 2000])
        XCTAssertEqual(summary.added, 2500)
    }

    /// A row naming its word by id goes after every row before it, and before every row after
    /// it, also when those wait for a batch.
    func testARowWithAnIdKeepsItsPlaceAmongRowsWithout() throws {
        let store = try Store(path: ":memory:")
        let book = try store.addBook(BookDraft(name: "B"), now: t0)
        let colour = try store.addWord(WordDraft(word: "colour"), toBook: book.id, now: t0)
        let filler = (0..<200).map { ",filler\($0)," }
        // Had the rename gone first, the row before it would have made a new "colour".
        let text = "id,word,definition\n" + (filler + [",colour,first", "\(colour.id.uuidString),color,renamed"] + filler)
            .joined(separator: "\n") + "\n"
        let summary = try importText(text, into: store)
        XCTAssertEqual(summary.added, 200, "the fillers")
        XCTAssertEqual(summary.updated, 2, "colour's definition, then its rename")
        XCTAssertEqual(summary.unchanged, 200, "the fillers again")
        let renamed = try XCTUnwrap(try store.word(id: colour.id))
        XCTAssertEqual(renamed.word, "color")
        XCTAssertEqual(renamed.definition, "renamed")
        XCTAssertNil(try store.wordWithExactText("colour", inBook: book.id))
        XCTAssertEqual(try store.wordCount(), 201)
        store.assertDerivedDataMatchesWords()
    }

    func testUpsertUpdatesOnlyTheColumnsTheFileHas() throws {
        let store = try Store(path: ":memory:")
        let book = try store.addBook(BookDraft(name: "B"), now: t0)
        try store.addWord(WordDraft(word: "apple", definition: "old", detail: "keep me"), toBook: book.id, now: t0)
        XCTAssertEqual(try importText("word,definition\napple,new\n", into: store), ImportSummary(updated: 1))
        let apple = try store.word("apple", inBook: nil)
        XCTAssertEqual(apple.definition, "new")
        XCTAssertEqual(apple.detail, "keep me")
    }

    func testUpsertByIdRenamesAndMovesTheWord() throws {
        let store = try Store(path: ":memory:")
        let book = try store.addBook(BookDraft(name: "B"), now: t0)
        let word = try store.addWord(WordDraft(word: "colour"), toBook: book.id, now: t0)
        let summary = try importText("id,word,book\n\(word.id.uuidString),color,American\n", into: store)
        XCTAssertEqual(summary, ImportSummary(updated: 1, createdBooks: ["American"]))
        let moved = try XCTUnwrap(try store.word(id: word.id))
        XCTAssertEqual(moved.word, "color")
        XCTAssertEqual(moved.bookId, try store.book("american").id)
    }

    func testOneBadRowRejectsTheWholeFileAndChangesNothing() throws {
        let store = try Store(path: ":memory:")
        _ = try importText("word\nexisting\n", into: store)
        let before = try store.words()
        XCTAssertThrowsError(try importText("word,date\nnew,2026-01-01\nbad,not-a-date\n", into: store)) { error in
            XCTAssertEqual((error as? ImportError)?.skippable?.line, 3)
        }
        XCTAssertEqual(try store.words(), before)
        XCTAssertEqual(try store.bookSummaries().count, 1)
    }

    func testSkipInvalidImportsTheRestAndListsEveryRejectedLine() throws {
        let store = try Store(path: ":memory:")
        let summary = try importText("word,memorized\nok,no\n,no\nfine,maybe\nbroken\"quote,no\nlast,1\n", into: store, skipInvalid: true)
        XCTAssertEqual(summary.added, 2)
        XCTAssertEqual(summary.rejected.map(\.line), [3, 4, 5])
        XCTAssertEqual(Set(try store.words().map(\.word)), ["ok", "last"])
    }

    func testRowsNameTheirOwnBooksAndMissingBooksAreCreatedOnce() throws {
        let store = try Store(path: ":memory:")
        let summary = try importText("word,book\na,Verbs\nb,verbs\nc,Nouns\n", into: store, book: nil)
        XCTAssertEqual(summary.createdBooks, ["Verbs", "Nouns"])
        XCTAssertEqual(try store.bookSummaries().map(\.wordCount), [1, 2])
        XCTAssertThrowsError(try importText("word\nlonely\n", into: store, book: nil)) { error in
            XCTAssertEqual(error as? ImportError, .noBook(line: 2))
        }
    }

    func testAnImportIsOneCommitForObservers() throws {
        let store = try Store(path: ":memory:")
        var commits = 0
        let token = store.observe { _ in commits += 1 }
        _ = try importText("word\n" + (0..<500).map { "w\($0)" }.joined(separator: "\n"), into: store)
        XCTAssertEqual(commits, 1)
        withExtendedLifetime(token) {}
    }

    func testExportedFilesImportBackToTheSameWords() throws {
        let source = try Store(path: ":memory:")
        let book = try source.addBook(BookDraft(name: "Mixed 혼합"), now: t0)
        let tricky = ["comma, here", "quote \"here\"", "new\nline", "탭\t and 🍎", "  "]
        for (index, text) in tricky.enumerated() {
            try source.addWord(WordDraft(word: "word \(index) 단어 🍎,\"q\"", definition: text, detail: text, pronunciation: "ˈp\(index)",
                                         synonym: text, antonym: text, date: t0.adding(seconds: Double(index)), memorized: index % 2 == 0),
                               toBook: book.id, now: t0.adding(seconds: Double(index * 60)))
        }
        let names = try source.bookNames()
        for format in [WordFileFormat.csv, .tsv, .jsonl] {  // text is Anki's layout: Basic notes, not every field
            let writer = WordFileWriter(format: format)
            var text = writer.header
            try source.forEachWord { text += writer.line(for: $0, bookName: names[$0.bookId] ?? "") }
            let target = try Store(path: ":memory:")
            var reader = try WordFileReader(ArrayByteStream(text), format: format)
            let summary = try WordImporter(now: t0.adding(seconds: 99_999)).run(&reader, into: target)
            XCTAssertEqual(summary.added, tricky.count, "\(format)")
            XCTAssertEqual(try target.words(), try source.words(), "\(format)")
            XCTAssertEqual(try target.bookSummaries().map(\.book.id), [book.id])
        }
    }
}
