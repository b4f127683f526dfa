import XCTest
import VocabCore
@testable import VocabStore

/// The kept collection read a page at a time (a whole upload's log, 200,000 entries, is taken in
/// pages rather than held at once): every object numbered at least the sync's own comes once, in
/// the order of number and id, across pages that end inside a run of one number; none numbered
/// below it, and none of another kind.
final class AnkiPagesTests: XCTestCase {
    func testPagesHandEachObjectNumberedAtLeastTheSyncsOnceInOrder() throws {
        let folder = try TemporaryFolder()
        let store = try Store(path: folder.file("pages.sqlite"))
        // 25 entries: usn 4 (below the sync's), 5 and 7, ids of different lengths, a note beside them.
        var objects: [AnkiObject] = []
        for index in 0..<25 {
            let usn: Int64 = index < 3 ? 4 : index < 15 ? 5 : 7
            objects.append(AnkiObject(kind: .revlog, id: String(1_000 + index * 37 % 25), usn: usn, body: "[\(index)]"))
        }
        objects.append(AnkiObject(kind: .note, id: "1005", usn: 5, body: "[]"))
        try store.putAnkiObjects(objects.shuffled())

        var read: [AnkiObject] = []
        var after: (usn: Int64, id: String)?
        var pages = 0
        while true {
            let page = try store.ankiObjects(.revlog, usnAtLeast: 5, after: after, limit: 4)
            guard let last = page.last else { break }
            XCTAssertLessThanOrEqual(page.count, 4)
            read += page
            after = (last.usn, last.id)
            pages += 1
            XCTAssertLessThan(pages, 10, "the pages end")
        }
        let wanted = objects.filter { $0.kind == .revlog && $0.usn >= 5 }.sorted { ($0.usn, $0.id) < ($1.usn, $1.id) }
        XCTAssertEqual(read.map(\.id), wanted.map(\.id))
        XCTAssertEqual(read.map(\.usn), wanted.map(\.usn))
        XCTAssertEqual(read.count, 22)
        XCTAssertEqual(pages, 6)
        // From the lowest number there is: all of them.
        XCTAssertEqual(try store.ankiObjects(.revlog, usnAtLeast: Int64.min, after: nil, limit: 100).count, 25)
    }
}
