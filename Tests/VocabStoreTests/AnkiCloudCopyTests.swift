import XCTest
import VocabCore
@testable import VocabStore

/// What a cloud server's copy of the kept Anki collection hands on after a call: every object it
/// wrote or removed, also one a write removed by taking its place as the mirror of a word (an
/// OR REPLACE deletes that row without firing a delete trigger), so the cloud drops it too.
final class AnkiCloudCopyTests: XCTestCase {
    private var folder: TemporaryFolder!

    override func setUpWithError() throws {
        folder = try TemporaryFolder()
    }

    override func tearDown() {
        folder = nil
    }

    private func note(_ id: String, source: String) -> AnkiObject {
        AnkiObject(kind: .note, id: id, usn: 1, body: "[\(id)]", source: source, stamp: nil)
    }

    func testAnObjectDisplacedAsAWordsMirrorIsHandedOnAsRemoved() throws {
        let store = try Store(path: folder.file("copy.sqlite"))
        try store.trackAnkiChanges()
        try store.putAnkiObject(note("1", source: "word-a"))
        try store.putAnkiObject(note("3", source: "word-b"))
        XCTAssertEqual(try store.takeAnkiChanges().rows.map(\.id), ["1", "3"])

        try store.putAnkiObject(note("2", source: "word-a"))  // note 1 goes: word-a's mirror is note 2 now
        var changes = try store.takeAnkiChanges()
        XCTAssertEqual(changes.rows.map(\.id), ["1", "2"], "the note put, and the one it displaced")
        XCTAssertNil(changes.rows.first { $0.id == "1" }?.row, "handed on as removed")
        XCTAssertNil(try store.ankiObject(.note, id: "1"))

        try store.setAnkiMirror(.note, id: "2", source: "word-b", stamp: "s")  // note 3 goes
        changes = try store.takeAnkiChanges()
        XCTAssertEqual(changes.rows.map(\.id), ["2", "3"], "the mirror moved, and the one it displaced")
        XCTAssertNil(changes.rows.first { $0.id == "3" }?.row, "handed on as removed")
        XCTAssertNotNil(changes.rows.first { $0.id == "2" }?.row)

        try store.putAnkiObject(note("2", source: "word-b"))  // its own mirror again: nothing displaced
        XCTAssertEqual(try store.takeAnkiChanges().rows.map(\.id), ["2"])
    }
}
