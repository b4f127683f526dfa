import XCTest
import VocabCore
import VocabDictionary
import VocabStore
@testable import VocabSessions

final class WordFormTests: XCTestCase {
    let t0 = Timestamp(iso8601: "2026-12-01T09:00:00Z")!

    private var entry: DictionaryEntry {
        DictionaryEntry(query: "happy", lemma: "happy",
                        senses: [Sense(lemma: "happy", partOfSpeech: "adjective", definition: "enjoying well-being",
                                       examples: ["a happy smile"], synonyms: ["glad", "felicitous"], antonyms: ["unhappy"])],
                        antonyms: ["unhappy"], pronunciation: "hˈæpi")
    }

    func testDictionaryFillsOnlyTheEmptyFields() {
        var form = WordForm()
        form[.word] = "happy"
        form[.definition] = "기쁜"
        let filled = form.fill(from: entry)
        XCTAssertEqual(filled, [.detail, .pronunciation, .synonym, .antonym])
        XCTAssertEqual(form[.definition], "기쁜", "what the user typed stays")
        XCTAssertEqual(form[.pronunciation], "hˈæpi")
        XCTAssertEqual(form[.synonym], "glad, felicitous")
        XCTAssertEqual(form.fill(from: entry), [], "a second fill changes nothing")
    }

    /// After Dictionary, another sense in one step: it replaces what the dictionary filled,
    /// never what the user typed, and fills what is still empty.
    func testChoosingAnotherSenseReplacesOnlyWhatTheDictionaryFilled() {
        let keen = DictionaryEntry(query: "keen", lemma: "keen", senses: [
            Sense(lemma: "keen", partOfSpeech: "adjective", definition: "having fine discernment", examples: ["a keen eye"],
                  synonyms: ["discriminating"], tagCount: 3),
            Sense(lemma: "keen", partOfSpeech: "adjective", definition: "intense or sharp", examples: ["keen winds"],
                  synonyms: ["bitter"], tagCount: 0),
            Sense(lemma: "keen", partOfSpeech: "noun", definition: "a funeral lament", examples: [], synonyms: [], tagCount: 0),
        ], antonyms: [])
        var form = WordForm()
        form[.word] = "keen"
        form[.synonym] = "sharp"  // typed by the learner
        XCTAssertEqual(form.fill(from: keen), [.definition, .detail])
        XCTAssertEqual(form[.definition], "(adj.) having fine discernment")
        XCTAssertEqual(form.choose(sense: 1, of: keen), [.definition, .detail])
        XCTAssertEqual(form[.definition], "(adj.) intense or sharp")
        XCTAssertEqual(form[.detail], "keen winds")
        XCTAssertEqual(form[.synonym], "sharp", "what the user typed stays")
        form[.detail] = "my own example"
        form.choose(sense: 2, of: keen)
        XCTAssertEqual(form[.definition], "(n.) a funeral lament")
        XCTAssertEqual(form[.detail], "my own example", "retyped after the fill: the learner's now")
    }

    func testDoneSavesANewWordAndEditsAnExistingOne() throws {
        let store = try Store(path: ":memory:")
        let book = try store.addBook(BookDraft(name: "B"), now: t0)
        var form = WordForm()
        form[.word] = "  apple "
        form[.definition] = "사과"
        let saved = try form.save(to: Library(store), bookId: book.id, now: t0)
        XCTAssertEqual(saved.word, "apple")
        var edit = WordForm(editing: saved)
        XCTAssertEqual(edit[.definition], "사과")
        edit[.detail] = "An apple a day."
        let edited = try edit.save(to: Library(store), bookId: book.id, now: t0.adding(seconds: 1))
        XCTAssertEqual(edited.id, saved.id)
        XCTAssertEqual(try store.word(id: saved.id)?.detail, "An apple a day.")
    }

    func testDoneReportsTheFieldABrokenRuleConcernsAndSavesNothing() throws {
        let store = try Store(path: ":memory:")
        let book = try store.addBook(BookDraft(name: "B"), now: t0)
        var form = WordForm()
        form[.definition] = "no word"
        XCTAssertThrowsError(try form.save(to: Library(store), bookId: book.id, now: t0)) {
            XCTAssertEqual(($0 as? WordFormError)?.field, .word)
        }
        form[.word] = "apple"
        _ = try form.save(to: Library(store), bookId: book.id, now: t0)
        XCTAssertThrowsError(try form.save(to: Library(store), bookId: book.id, now: t0)) {
            XCTAssertEqual(($0 as? WordFormError)?.field, .word, "a duplicate is the word field's problem")
        }
        XCTAssertEqual(try store.wordCount(), 1)
    }

    func testTheWebDictionaryURLIsForTheWordTyped() throws {
        let service = DictionaryService(environment: [:])
        XCTAssertEqual(try service.webURL(for: "사과"), "https://en.dict.naver.com/#/search?query=%EC%82%AC%EA%B3%BC")
        let custom = DictionaryService(environment: [:], webTemplate: "https://example.org/{word}")
        XCTAssertEqual(try custom.webURL(for: "a b"), "https://example.org/a%20b")
        XCTAssertThrowsError(try DictionaryService(environment: [:], webTemplate: "https://no-placeholder").webURL(for: "x"))
    }

    func testTheBookFormSavesAndReportsTheFieldEachRuleConcerns() throws {
        let store = try Store(path: ":memory:")
        var form = BookForm()
        form[.name] = "  "
        XCTAssertThrowsError(try form.save(to: Library(store), now: t0)) { XCTAssertEqual(($0 as? BookFormError)?.field, .name) }
        form[.name] = "TOEIC"
        form[.explain] = "exam words"
        let book = try form.save(to: Library(store), now: t0)
        XCTAssertEqual(book.explain, "exam words")
        XCTAssertThrowsError(try form.save(to: Library(store), now: t0)) { error in
            XCTAssertEqual((error as? BookFormError)?.field, .name, "a name taken")
        }
        var edit = BookForm(editing: book)
        XCTAssertEqual(edit[.name], "TOEIC")
        edit[.coverWord] = String(repeating: "x", count: 100_000)
        XCTAssertThrowsError(try edit.save(to: Library(store), now: t0)) { XCTAssertEqual(($0 as? BookFormError)?.field, .coverWord) }
        XCTAssertEqual(try store.book(id: book.id)?.coverWord, "", "nothing saved")
        edit[.coverWord] = "abandon"
        XCTAssertEqual(try edit.save(to: Library(store), now: t0).coverWord, "abandon")
    }
}
