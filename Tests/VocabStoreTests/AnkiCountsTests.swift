import XCTest
import VocabCore
@testable import VocabStore

/// The kept Anki collection's counts of each kind (what every sync's sanity check asks, kept by
/// triggers since schema 18) stay what counting the rows gives, through every way objects are
/// written: new and replacing puts, one at a time and many to a statement (the same one twice in
/// a statement too), a mirror moved onto another object (which takes it from the one that had
/// it), removals, a bulk change (counted once after), and the whole collection cleared.
final class AnkiCountsTests: XCTestCase {
    private var folder: TemporaryFolder!

    override func setUpWithError() throws {
        folder = try TemporaryFolder()
    }

    override func tearDown() {
        folder = nil
    }

    private func object(_ kind: AnkiObjectKind, _ id: Int, source: String? = nil) -> AnkiObject {
        AnkiObject(kind: kind, id: String(id), usn: 1, body: "[\(id)]", source: source, stamp: nil)
    }

    private func assertCounted(_ store: Store, _ step: String, file: StaticString = #filePath, line: UInt = #line) throws {
        for kind in [AnkiObjectKind.note, .card, .revlog, .deck] {
            let rows = Int(try store.database.integer("SELECT count(*) FROM anki_objects WHERE kind = ?", [.text(kind.rawValue)]))
            XCTAssertEqual(try store.ankiObjectCount(kind), rows, "\(kind.rawValue) after \(step)", file: file, line: line)
        }
    }

    func testCountsStayTheRowsThroughEveryWrite() throws {
        let store = try Store(path: folder.file("counts.sqlite"))
        try assertCounted(store, "nothing")
        try store.putAnkiObjects((0..<150).map { object(.note, $0, source: "word-\($0)") } + (0..<150).map { object(.card, $0) })
        try assertCounted(store, "new objects, many to a statement")
        try store.putAnkiObjects((100..<200).map { object(.note, $0, source: "word-\($0)") } + [object(.revlog, 1), object(.revlog, 1)])
        try assertCounted(store, "half of them again, and one twice in a statement")
        try store.putAnkiObject(object(.note, 500, source: "word-3"))  // takes word-3 from note 3, which goes
        try assertCounted(store, "a put that takes another's source")
        try store.putAnkiObject(object(.note, 4, source: "word-5"))  // replaces itself, and takes note 5's source
        try assertCounted(store, "a put that replaces itself and takes another's source")
        try store.setAnkiMirror(.note, id: "6", source: "word-7", stamp: "s")  // note 7 goes
        try store.setAnkiMirror(.note, id: "8", source: "word-8", stamp: "s")  // its own: nothing goes
        try store.setAnkiMirror(.card, id: "9", source: nil, stamp: nil)
        try assertCounted(store, "mirrors moved")
        try store.removeAnkiObject(.card, id: "10")
        try store.removeAnkiObject(.card, id: "no such card")
        try assertCounted(store, "removals")
        XCTAssertEqual(try store.ankiObjectCount(.note), 198)  // 200 notes, three taken over, one added
        try store.clearAnkiCollection()
        try assertCounted(store, "the collection cleared")
        try store.putAnkiObject(object(.deck, 1))
        try assertCounted(store, "a new kind")
        try store.withAnkiBulkChange(cacheMegabytes: 2) { try store.putAnkiObjects((0..<300).map { object(.revlog, $0) }) }
        try assertCounted(store, "a bulk change, counted once after")
        try store.clearAnkiCopy()
        try assertCounted(store, "a cloud's copy cleared")
    }
}
