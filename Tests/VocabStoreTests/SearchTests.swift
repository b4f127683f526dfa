import XCTest
import VocabCore
@testable import VocabStore

/// Full-text search (the trigram index, its deferred indexing) and look-up by text.
final class SearchTests: XCTestCase {
    let t0 = Timestamp(milliseconds: 1_700_000_000_000)

    private func importText(_ text: String, into store: Store, book: String = "B") throws -> ImportSummary {
        var reader = try WordFileReader(ArrayByteStream(text), format: .csv)
        return try WordImporter(defaultBook: book, skipInvalid: false, now: t0).run(&reader, into: store)
    }

    func testSubstringsAreFoundInKoreanAndEnglishInEveryField() throws {
        let store = try Store(path: ":memory:")
        let book = try store.addBook(BookDraft(name: "B"), now: t0)
        try store.addWord(WordDraft(word: "apple", definition: "빨간 사과를 먹다"), toBook: book.id, now: t0)
        try store.addWord(WordDraft(word: "pineapple", definition: "파인애플", detail: "A tropical FRUIT."), toBook: book.id, now: t0)
        try store.addWord(WordDraft(word: "sweet", pronunciation: "/swiːt/", synonym: "sugary", antonym: "bitter"), toBook: book.id, now: t0)
        XCTAssertEqual(try store.searchWords("사과를").map(\.word), ["apple"], "Korean inside a field")
        XCTAssertEqual(try store.searchWords("간 사").map(\.word), ["apple"], "across a space")
        XCTAssertEqual(try store.searchWords("사과").map(\.word), ["apple"], "two syllables: read directly")
        XCTAssertEqual(try store.searchWords("fruit").map(\.word), ["pineapple"], "detail, any case")
        XCTAssertEqual(try store.searchWords("swiː").map(\.word), ["sweet"], "pronunciation")
        XCTAssertEqual(try store.searchWords("ugar").map(\.word), ["sweet"], "synonym, mid-word")
        XCTAssertEqual(try store.searchWords("itter").map(\.word), ["sweet"], "antonym")
        XCTAssertEqual(try store.searchWords("e").count, 3)
        XCTAssertEqual(try store.searchWords("zzz"), [])
        XCTAssertEqual(try store.searchWords("\"quoted\""), [], "quotes are text, not query syntax")
        store.assertDerivedDataMatchesWords()
    }

    func testTheWordItselfComesFirstThenWordsStartingWithIt() throws {
        let store = try Store(path: ":memory:")
        let book = try store.addBook(BookDraft(name: "B"), now: t0)
        for (word, definition) in [("pineapple", "fruit"), ("applesauce", "sauce"), ("crab apple", "tree"), ("Apple", "fruit")] {
            try store.addWord(WordDraft(word: word, definition: definition), toBook: book.id, now: t0)
        }
        let found = try store.searchWords("apple").map(\.word)
        XCTAssertEqual(Array(found.prefix(2)), ["Apple", "applesauce"])
        XCTAssertEqual(Set(found), ["Apple", "applesauce", "pineapple", "crab apple"])
        XCTAssertEqual(try store.searchWords("apple", limit: 1).map(\.word), ["Apple"])
        XCTAssertEqual(try store.searchWordKeys("apple", inBook: book.id).count, 4)
        let other = try store.addBook(BookDraft(name: "Other"), now: t0)
        XCTAssertEqual(try store.searchWordKeys("apple", inBook: other.id), [])
    }

    func testTheIndexFollowsEditsDeletesAndBookDeletes() throws {
        let store = try Store(path: ":memory:")
        let book = try store.addBook(BookDraft(name: "B"), now: t0)
        let word = try store.addWord(WordDraft(word: "cat", definition: "고양이"), toBook: book.id, now: t0)
        _ = try store.updateWord(id: word.id, WordChanges(definition: "야옹이"), now: t0)
        XCTAssertEqual(try store.searchWords("고양이"), [])
        XCTAssertEqual(try store.searchWords("야옹이").map(\.word), ["cat"])
        try store.deleteWord(id: word.id, now: t0)
        XCTAssertEqual(try store.searchWords("야옹이"), [])
        try store.addWord(WordDraft(word: "dog", definition: "강아지야"), toBook: book.id, now: t0)
        _ = try store.deleteBook(id: book.id, now: t0)
        XCTAssertEqual(try store.searchWords("강아지"), [])
        store.assertDerivedDataMatchesWords()
    }

    func testABigImportIsIndexedLaterAndFoundMeanwhile() throws {
        let store = try Store(path: ":memory:")
        let rows = (0..<3000).map { "word\($0),뜻\($0) 사과나무\n" }.joined()
        _ = try importText("word,definition\n" + rows, into: store)
        XCTAssertEqual(try store.searchBacklog(), 3000, "more than an import indexes at once")
        XCTAssertEqual(try store.searchWords("word2999").map(\.word), ["word2999"], "found before it is indexed")
        XCTAssertEqual(try store.searchWords("과나무").count, 3000)
        // Changes meanwhile: an edit and a delete of waiting words, a new word, and an update
        // of a waiting word by a second import.
        _ = try store.updateWord(id: try store.word("word5", inBook: nil).id, WordChanges(definition: "바뀐 뜻"), now: t0)
        try store.deleteWord(id: try store.word("word6", inBook: nil).id, now: t0)
        try store.addWord(WordDraft(word: "later", definition: "나중에"), toBook: try store.book("B").id, now: t0)
        _ = try importText("word,definition\nword7,다시 들어온 뜻\n", into: store)
        var steps: [Int64] = []
        try store.indexDeferredWords(chunk: 1000, progress: { steps.append($0) })
        XCTAssertFalse(steps.isEmpty, "progress after each chunk (the last 2,000 go at once, as after any write)")
        XCTAssertEqual(try store.searchBacklog(), 0)
        store.assertDerivedDataMatchesWords()
        XCTAssertEqual(try store.searchWords("과나무").count, 2997)
        XCTAssertEqual(try store.searchWords("바뀐 뜻").map(\.word), ["word5"])
        XCTAssertEqual(try store.searchWords("들어온").map(\.word), ["word7"])
        XCTAssertEqual(try store.searchWords("나중에").map(\.word), ["later"])
        // A small import is indexed at once.
        _ = try importText("word,definition\nsmall,작은 것\n", into: store)
        XCTAssertEqual(try store.searchBacklog(), 0)
        store.assertDerivedDataMatchesWords()
    }

    func testAWordIsFoundByItsTextIgnoringCaseAndAccents() throws {
        let store = try Store(path: ":memory:")
        let book = try store.addBook(BookDraft(name: "B"), now: t0)
        try store.addWord(WordDraft(word: "Café"), toBook: book.id, now: t0)
        try store.addWord(WordDraft(word: "Straße"), toBook: book.id, now: t0)
        XCTAssertEqual(try store.word("CAFE", inBook: nil).word, "Café")
        XCTAssertEqual(try store.word("strasse", inBook: book.id).word, "Straße")
        XCTAssertEqual(try store.searchWords("cafe").map(\.word), ["Café"], "search finds the word by its key too")
        XCTAssertThrowsError(try store.word("caffe", inBook: nil)) { error in
            XCTAssertEqual(error as? VocabError, .wordNotFound("caffe", book: nil))
        }
        XCTAssertEqual(try store.database.integer("SELECT count(*) FROM words WHERE word_key = ''"), 0)
    }
}
