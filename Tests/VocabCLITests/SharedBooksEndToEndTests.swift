import Foundation
import XCTest

/// Shared books between two learners of one Vocab server, from the terminal: a teacher shares
/// a book, a student follows it by its link, studies it, and gets the teacher's corrections
/// without losing his progress; the teacher's other books and reviews never reach him; a
/// follower's writes never reach the teacher; unsharing freezes the student's copy and stops
/// the code at once.
final class SharedBooksEndToEndTests: CloudEndToEndTestCase {
    private var server = ""

    /// A teacher (device "teacher") with a shared book of three words and a private book, and a
    /// student (devices "student" and "student2"); returns the share's link.
    private func teacherSharesABook(catalog: String? = nil) throws -> (teacher: String, student: String, link: String) {
        let teacher = try newUser("teacher"), student = try newUser("student")  // (the cloud made first)
        server = try sharedServer()
        try signIn("teacher", to: server, as: teacher)
        try signIn("student", to: server, as: student)
        try signIn("student2", to: server, as: student)
        try on("teacher", ["book", "add", "TOEIC"]).expectSuccess()
        for (word, definition) in [("abandon", "to leave"), ("benefit", "an advantage"), ("comply", "to obey")] {
            try on("teacher", ["word", "add", word, "--book", "TOEIC", "--definition", definition]).expectSuccess()
        }
        try on("teacher", ["book", "add", "Diary"]).expectSuccess()
        try on("teacher", ["word", "add", "secret", "--book", "Diary"]).expectSuccess()
        try on("teacher", ["review", "abandon", "--rating", "again"]).expectSuccess()  // the teacher's own progress
        let shared = try on("teacher", ["share", "TOEIC", "--json"] + (catalog.map { ["--catalog", $0, "--languages", "en-ko"] } ?? []))
        XCTAssertEqual(shared.status, 0, shared.stderr)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(shared.stdout.utf8)) as? [String: Any])
        let link = try XCTUnwrap(object["link"] as? String)
        XCTAssertTrue(link.hasPrefix(server + "/#follow="), link)
        XCTAssertEqual((object["code"] as? String)?.count, 26, "128 bits in 26 characters")
        return (teacher, student, link)
    }

    /// The device's own words in `book`, sorted.
    private func words(_ device: String, book: String) throws -> [String] {
        let listed = try JSONSerialization.jsonObject(with: Data(try on(device, ["word", "list", "--book", book, "--json"]).stdout.utf8))
        return ((listed as? [[String: Any]]) ?? []).compactMap { $0["word"] as? String }.sorted()
    }

    /// The JSON a command of `device` prints.
    private func json(_ device: String, _ arguments: [String]) throws -> Any {
        let result = try on(device, arguments)
        XCTAssertEqual(result.status, 0, "\(arguments): \(result.stderr)")
        return try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
    }

    /// A request by hand with `device`'s token: (status, body).
    private func request(_ device: String, _ method: String, _ path: String, body: String? = nil) throws -> (status: Int, body: String) {
        let login = try String(contentsOfFile: vocab.file("\(device)/config/vocab/cloud.json"), encoding: .utf8)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(login.utf8)) as? [String: Any])
        let token = "\(object["user"] as? String ?? "").\(object["password"] as? String ?? "")"
        var arguments = ["-X", method, "-H", "Authorization: Bearer \(token)", "-H", "X-Vocab-Request: 1", "-w", "\n%{http_code}"]
        if let body { arguments += ["-H", "Content-Type: application/json", "--data-binary", body] }
        let answer = try curl(arguments + [server + path])
        let status = Int(answer.split(separator: "\n").last ?? "") ?? 0
        return (status, String(answer.dropLast(String(status).count)).trimmingCharacters(in: .newlines))
    }

    /// A follower's pull of a book whose owner memorised and edited words carries only the
    /// book: none of her memorised marks, per-field stamps (times and a store's id) or edit times
    /// (issue 54: they all reached him, though memorised marks stay each learner's own).
    func testAFollowersPullCarriesNoneOfTheOwnersMarksStampsOrEditTimes() throws {
        let (_, _, link) = try teacherSharesABook()
        try on("teacher", ["word", "memorize", "benefit"]).expectSuccess()
        try on("teacher", ["word", "edit", "comply", "--definition", "to follow a rule"]).expectSuccess()
        try syncs("teacher")
        try on("student", ["follow", link]).expectSuccess()
        let follows = try request("student", "GET", "/api/v1/follows")
        XCTAssertEqual(follows.status, 200, follows.body)
        let listed = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(follows.body.utf8)) as? [[String: Any]])
        let share = try XCTUnwrap(listed.first?["share"] as? String, follows.body)
        let pulled = try request("student", "GET", "/api/v1/follows/\(share)/records?after=0")
        XCTAssertEqual(pulled.status, 200, pulled.body)
        let bodies = pulled.body.split(separator: "\n").compactMap { line in
            line.split(separator: "\t", maxSplits: 4).last.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        }
        XCTAssertEqual(bodies.count, 4, "the book and its three words: \(pulled.body)")
        for body in bodies {
            XCTAssertNil(body["memorized"], "no memorised mark of hers: \(body)")
            XCTAssertNil(body["stamps"], "no stamps of hers: \(body)")
            XCTAssertEqual(body["modifiedAt"] as? Int, body["createdAt"] as? Int, "no edit time of hers: \(body)")
        }
        XCTAssertTrue(bodies.contains { $0["definition"] as? String == "to follow a rule" }, "her edit itself arrives")
        let benefit = try XCTUnwrap(try json("student", ["word", "show", "benefit", "--json"]) as? [String: Any])
        XCTAssertEqual(benefit["memorized"] as? Bool, false, "her mark is not his")
    }

    func testAStudentFollowsByLinkStudiesAndGetsTheTeachersCorrectionsKeepingHisProgress() throws {
        let (_, _, link) = try teacherSharesABook()
        let followed = try on("student", ["follow", link])
        XCTAssertEqual(followed.status, 0, followed.stderr)
        XCTAssertTrue(followed.stdout.contains("Following \"TOEIC\""), followed.stdout)
        XCTAssertEqual(try words("student", book: "TOEIC"), ["abandon", "benefit", "comply"])
        let listed = try on("student", ["book", "list"]).stdout
        XCTAssertFalse(listed.contains("Diary"), "the teacher's other books stay his")
        XCTAssertTrue(listed.contains("[shared]"), "a followed book says so: \(listed)")

        // The student studies it: his review, his memorised mark.
        try on("student", ["review", "benefit", "--rating", "good"]).expectSuccess()
        try on("student", ["word", "memorize", "comply"]).expectSuccess()
        try syncs("student")

        // Read-only for him: every change is refused and changes nothing.
        for change in [["word", "add", "extra", "--book", "TOEIC"], ["word", "edit", "abandon", "--definition", "mine"],
                       ["word", "delete", "benefit"], ["book", "rename", "TOEIC", "Mine"], ["book", "delete", "TOEIC", "--yes"]] {
            let refused = try on("student", change)
            XCTAssertEqual(refused.status, 1, "\(change): \(refused.stderr)")
            XCTAssertTrue(refused.stderr.contains("shared book"), "\(change): \(refused.stderr)")
        }
        XCTAssertEqual(try words("student", book: "TOEIC"), ["abandon", "benefit", "comply"])

        // The teacher corrects, adds and deletes; the student's next sync brings all three.
        try on("teacher", ["word", "edit", "benefit", "--definition", "a good effect"]).expectSuccess()
        try on("teacher", ["word", "add", "deadline", "--book", "TOEIC"]).expectSuccess()
        try on("teacher", ["word", "delete", "abandon"]).expectSuccess()
        try syncs("teacher")
        let synced = try on("student", ["sync"])
        XCTAssertEqual(synced.status, 0, synced.stderr)
        XCTAssertTrue(synced.stdout.contains("Books you follow:"), synced.stdout)
        XCTAssertEqual(try words("student", book: "TOEIC"), ["benefit", "comply", "deadline"])
        let benefit = try XCTUnwrap(try json("student", ["word", "show", "benefit", "--json"]) as? [String: Any])
        XCTAssertEqual(benefit["definition"] as? String, "a good effect")
        XCTAssertEqual((benefit["schedule"] as? [String: Any])?["reviews"] as? Int, 1, "his review survived the teacher's edit")
        let comply = try XCTUnwrap(try json("student", ["word", "show", "comply", "--json"]) as? [String: Any])
        XCTAssertEqual(comply["memorized"] as? Bool, true, "his memorised mark survived too")

        // His other device gets the book and his review of it.
        try syncs("student2")
        XCTAssertEqual(try words("student2", book: "TOEIC"), ["benefit", "comply", "deadline"])
        let there = try XCTUnwrap(try json("student2", ["word", "show", "benefit", "--json"]) as? [String: Any])
        XCTAssertEqual((there["schedule"] as? [String: Any])?["reviews"] as? Int, 1)
        let marked = try XCTUnwrap(try json("student2", ["word", "show", "comply", "--json"]) as? [String: Any])
        XCTAssertEqual(marked["memorized"] as? Bool, true, "his memorised mark reaches his other device too")
        // Syncing again moves nothing, and the counts agree (no repair).
        let again = try on("student", ["sync"])
        try again.expectSuccess()
        XCTAssertTrue(again.stdout.contains("pulled 0, pushed 0") && !again.stdout.contains("everything was pulled again"), again.stdout)

        // The teacher sees how many follow, never who; the student's progress never reaches her.
        let overview = try XCTUnwrap(try json("teacher", ["shares", "--json"]) as? [String: Any])
        let shares = try XCTUnwrap(overview["shares"] as? [[String: Any]])
        XCTAssertEqual(shares.first?["followers"] as? Int, 1)
        XCTAssertFalse(try on("teacher", ["shares"]).expectSuccess().contains("student"))
        let hers = try XCTUnwrap(try json("teacher", ["word", "show", "benefit", "--json"]) as? [String: Any])
        XCTAssertEqual(((hers["schedule"] as? [String: Any])?["reviews"] as? Int) ?? 0, 0, "the student's review is not hers")

        // A copy is his own, with his progress, and his to change.
        try on("student", ["copy", "TOEIC", "--name", "My TOEIC"]).expectSuccess()
        try on("student", ["word", "add", "extra", "--book", "My TOEIC"]).expectSuccess()
        XCTAssertEqual(try words("student", book: "My TOEIC"), ["benefit", "comply", "deadline", "extra"])
        let copied = try XCTUnwrap(try json("student", ["word", "show", "benefit", "--book", "My TOEIC", "--json"]) as? [String: Any])
        XCTAssertEqual((copied["schedule"] as? [String: Any])?["reviews"] as? Int, 1)
        try syncs("student")
        try syncs("student2")
        XCTAssertEqual(try words("student2", book: "My TOEIC"), ["benefit", "comply", "deadline", "extra"])
    }

    func testUnsharingStopsTheCodeAtOnceAndLeavesFollowersAFrozenCopyOfTheirOwn() throws {
        let (_, _, link) = try teacherSharesABook()
        try on("student", ["follow", link]).expectSuccess()
        try syncs("student2")
        let stopped = try on("teacher", ["share", "TOEIC", "--stop"])
        XCTAssertEqual(stopped.status, 0, stopped.stderr)
        XCTAssertTrue(stopped.stdout.contains("Its 1 follower keeps a copy"), stopped.stdout)

        // The code no longer works, for anyone, at once.
        let third = try newUser("late")
        try signIn("late", to: server, as: third)
        let late = try on("late", ["follow", link])
        XCTAssertEqual(late.status, 1, late.stderr)
        XCTAssertTrue(late.stderr.contains("No book is shared under that code"), late.stderr)
        XCTAssertFalse(try on("late", ["book", "list"]).expectSuccess().contains("TOEIC"))

        // The student is told, keeps the words, and may change them now; both his devices agree.
        let told = try on("student", ["sync"])
        XCTAssertEqual(told.status, 0, told.stderr)
        XCTAssertTrue(told.stdout.contains("\"TOEIC\" is no longer shared by its owner"), told.stdout)
        try on("student", ["word", "add", "mine", "--book", "TOEIC"]).expectSuccess()
        try syncs("student")
        try syncs("student2")
        try syncs("student")
        XCTAssertEqual(try words("student2", book: "TOEIC"), ["abandon", "benefit", "comply", "mine"])
        let again = try on("student2", ["sync"])
        try again.expectSuccess()
        XCTAssertFalse(again.stdout.contains("everything was pulled again"), again.stdout)
        // The teacher's book is as she left it.
        XCTAssertEqual(try words("teacher", book: "TOEIC"), ["abandon", "benefit", "comply"])
    }

    /// A stranger's book under the ids of the learner's own (issue 68: bob followed alice's
    /// shared book and so learned its book's and words' ids, pushed a book of his own under them,
    /// shared it as "Ms. Kim"; alice followed it on another device, and her own book was gone
    /// from that device, for good, every sync exiting 0): her book and words stay on every
    /// device of hers, his copy sits beside them under ids of its own, and unfollowing it takes
    /// only his.
    func testAStrangersBookUnderTheIdsOfTheLearnersOwnNeverTakesItsPlace() throws {
        let alice = try newUser("alice"), bob = try newUser("bob")
        server = try sharedServer()
        for (device, user) in [("alice", alice), ("alice2", alice), ("bob", bob)] { try signIn(device, to: server, as: user) }
        try on("alice", ["book", "add", "Class words"]).expectSuccess()
        for word in ["apple", "pear"] { try on("alice", ["word", "add", word, "--book", "Class words", "--definition", "a fruit"]).expectSuccess() }
        let hers = try on("alice", ["share", "Class words", "--json", "--catalog", "Ms. Kim"])
        let herLink = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(hers.stdout.utf8)) as? [String: Any])?["link"] as? String)
        try on("bob", ["follow", herLink]).expectSuccess()

        // What bob learns over the wire: her book's and words' ids, pushed as his own with his words.
        let follows = try request("bob", "GET", "/api/v1/follows")
        let share = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(follows.body.utf8)) as? [[String: Any]])?.first?["share"] as? String)
        let lines = try request("bob", "GET", "/api/v1/follows/\(share)/records?after=0&limit=5000").body.split(separator: "\n")
        let ids = lines.map { $0.split(separator: "\t").map(String.init) }.filter { $0.count >= 2 }.map { (kind: $0[0], id: $0[1]) }
        let bookId = try XCTUnwrap(ids.first { $0.kind == "book" }?.id)
        let forged = ids.map { record in
            record.kind == "book"
                ? #"{"k":"book","i":"\#(record.id)","d":false,"b":{"name":"Class words","createdAt":1,"modifiedAt":1}}"#
                : #"{"k":"word","i":"\#(record.id)","d":false,"b":{"word":"fake\#(record.id.prefix(4))","bookId":"\#(bookId)","date":1,"createdAt":1,"modifiedAt":1}}"#
        }
        let counts = try request("bob", "GET", "/api/v1/account")
        let latest = ((try JSONSerialization.jsonObject(with: Data(counts.body.utf8)) as? [String: Any])?["latest"] as? Int) ?? 0
        let pushed = try request("bob", "POST", "/api/v1/sync/push?token=\(latest)&fresh=0&merge=1", body: "[" + forged.joined(separator: ",") + "]")
        XCTAssertEqual(pushed.status, 200, pushed.body)
        try syncs("bob")
        let his = try on("bob", ["share", "Class words", "--json", "--catalog", "Ms. Kim"])
        XCTAssertEqual(his.status, 0, his.stderr)
        let hisLink = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(his.stdout.utf8)) as? [String: Any])?["link"] as? String)
        // Both listed as "Ms. Kim": each name carries its account's mark, which he cannot copy.
        let codes = [herLink, hisLink].compactMap { $0.split(separator: "=").last.map(String.init) }
        let listed = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(try request("alice", "GET", "/api/v1/catalog?q=class").body.utf8))
            as? [[String: Any]]).filter { codes.contains($0["code"] as? String ?? "") }.compactMap { $0["sharer"] as? String }
        XCTAssertEqual(listed.count, 2, "\(listed)")
        XCTAssertEqual(Set(listed).count, 2, "two sharers of one name told apart: \(listed)")
        XCTAssertTrue(listed.allSatisfy { $0.wholeMatch(of: #/Ms\. Kim #[0-9A-F]{6}/#) != nil }, "\(listed)")

        // Alice, on a device that has not synced yet, follows his.
        try on("alice2", ["follow", hisLink]).expectSuccess()
        try syncs("alice2")
        XCTAssertEqual(try words("alice2", book: "Class words"), ["apple", "pear"], "her own book, whole")
        let books = try XCTUnwrap(try json("alice2", ["book", "list", "--json"]) as? [[String: Any]]).compactMap { $0["name"] as? String }
        XCTAssertEqual(books.count, 2, "his copy beside hers: \(books)")
        try on("alice2", ["unfollow", try XCTUnwrap(books.first { $0 != "Class words" })]).expectSuccess()
        try syncs("alice2")
        XCTAssertEqual(try words("alice2", book: "Class words"), ["apple", "pear"], "unfollowing took only his")
        try syncs("alice")
        XCTAssertEqual(try words("alice", book: "Class words"), ["apple", "pear"])
    }

    func testAFollowersForgedRequestsReachNothingOfTheOwnersButTheSharedBook() throws {
        let (teacher, student, link) = try teacherSharesABook(catalog: "Ms. Kim")
        try on("student", ["follow", link]).expectSuccess()
        let follows = try request("student", "GET", "/api/v1/follows")
        XCTAssertEqual(follows.status, 200, follows.body)
        let followed = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(follows.body.utf8)) as? [[String: Any]])?.first)
        let share = try XCTUnwrap(followed["share"] as? String), bookId = try XCTUnwrap(followed["book"] as? String)
        XCTAssertFalse(follows.body.contains(teacher), "the owner's account name never reaches a follower")

        // What the share gives: the book and its words, nothing else of hers (no reviews, no Diary).
        let records = try request("student", "GET", "/api/v1/follows/\(share)/records?after=0&limit=5000")
        XCTAssertEqual(records.status, 200)
        let kinds = records.body.split(separator: "\n").map { $0.split(separator: "\t").first.map(String.init) ?? "" }
        XCTAssertEqual(kinds.sorted(), ["book", "word", "word", "word"], records.body)
        XCTAssertFalse(records.body.contains("secret") || records.body.contains(teacher), records.body)

        // A write into her book: his push lands in his own account, never hers.
        let wordId = UUID().uuidString.lowercased()
        let forged = #"[{"k":"word","i":"\#(wordId)","d":false,"b":{"word":"forged","bookId":"\#(bookId)","date":1,"createdAt":1,"modifiedAt":1}}]"#
        let counts = try request("student", "GET", "/api/v1/account")
        let latest = ((try JSONSerialization.jsonObject(with: Data(counts.body.utf8)) as? [String: Any])?["latest"] as? Int) ?? 0
        let pushed = try request("student", "POST", "/api/v1/sync/push?token=\(latest)&fresh=0&merge=1", body: forged)
        XCTAssertEqual(pushed.status, 200, pushed.body)
        XCTAssertFalse(try request("student", "GET", "/api/v1/follows/\(share)/records?after=0&limit=5000").body.contains("forged"))
        try syncs("teacher")
        XCTAssertEqual(try words("teacher", book: "TOEIC"), ["abandon", "benefit", "comply"], "nothing of his reaches her")
        // Shares by hand: of a book not his, not followed, unknown — all refused.
        XCTAssertEqual(try request("student", "POST", "/api/v1/shares", body: #"{"book":"\#(bookId)","listed":true}"#).status, 409)
        XCTAssertEqual(try request("student", "DELETE", "/api/v1/shares/\(bookId)").status, 404, "he cannot stop her share")
        let third = try newUser("nosy")
        try signIn("nosy", to: server, as: third)
        XCTAssertEqual(try request("nosy", "GET", "/api/v1/follows/\(share)/records?after=0&limit=10").status, 404, "not followed: nothing")
        XCTAssertEqual(try request("nosy", "GET", "/api/v1/follows/\(UUID().uuidString.lowercased())/records?after=0&limit=10").status, 404)
        XCTAssertEqual(try request("nosy", "GET", "/api/v1/follows/..%2F..%2Fetc/records?after=0").status, 404)

        // The catalogue lists what she listed, by the name she chose; never an unlisted book.
        let found = try request("nosy", "GET", "/api/v1/catalog?q=toe")
        XCTAssertTrue(found.body.contains("Ms. Kim") && found.body.contains("TOEIC") && !found.body.contains(teacher), found.body)
        try on("teacher", ["book", "add", "Hidden"]).expectSuccess()
        try on("teacher", ["share", "Hidden"]).expectSuccess()
        XCTAssertFalse(try request("nosy", "GET", "/api/v1/catalog?q=hid").body.contains("Hidden"))
        // Sharing it again to see its link keeps its listing (and is no change of it).
        let again = try on("teacher", ["share", "TOEIC"])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertTrue(again.stdout.contains("Listed in the catalogue as shared by Ms. Kim #"), again.stdout)
        // A listing changes once a minute at most.
        let soon = try on("teacher", ["share", "TOEIC", "--unlist"])
        XCTAssertEqual(soon.status, 1, soon.stderr)
        XCTAssertTrue(soon.stderr.contains("once a minute"), soon.stderr)

        // The innocent are unharmed: her sync and his own account work as before.
        try syncs("teacher")
        XCTAssertEqual(try words("teacher", book: "Diary"), ["secret"])
        try syncs("student")
        XCTAssertFalse(try on("student", ["book", "list"]).expectSuccess().contains("Diary"), "\(student) sees none of her books")
    }

    /// Book size, shares per learner and follows per learner: each refused with what the bound
    /// is, changing nothing, and the learners' syncs unharmed.
    func testTheBoundsOfSharingRefuseAndChangeNothing() throws {
        let (teacher, student, link) = try teacherSharesABook()
        try on("student", ["follow", link]).expectSuccess()
        func count(_ sql: String) throws -> Int { Int(try adminSQL(sql)) ?? -1 }

        // A shared book grown past 10,000 words: the sync stores what fits and is refused
        // beyond it, nothing of the refused batch stored; the follower's copy stays within the
        // bound; once the book fits again everything syncs.
        let csv = "word,definition\n" + (0..<9_998).map { "grown\($0),meaning\n" }.joined()
        try Data(csv.utf8).write(to: URL(fileURLWithPath: vocab.file("grown.csv")))
        try on("teacher", ["import", vocab.file("grown.csv"), "--book", "TOEIC"]).expectSuccess()
        let liveInTheBook = """
            SELECT count(*) FROM vocab.records r JOIN vocab.records b ON b.owner = r.owner AND b.kind = 'book' AND b.id::text = r.body->>'bookId'
            WHERE r.owner = '\(teacher)' AND r.kind = 'word' AND NOT r.deleted AND b.body->>'name' = 'TOEIC'
            """
        for _ in 0..<2 {
            let grown = try on("teacher", ["sync"])
            XCTAssertNotEqual(grown.status, 0, grown.stderr)
            XCTAssertTrue(grown.stderr.contains("A book you share may hold 10000 words"), grown.stderr)
            XCTAssertLessThanOrEqual(try count(liveInTheBook), 10_000)
        }
        try syncs("student")
        let followed = try words("student", book: "TOEIC").count
        XCTAssertTrue((3...10_000).contains(followed), "\(followed) words followed")
        try on("teacher", ["word", "delete", "grown0"]).expectSuccess()  // 10,000 words: within the bound
        try syncs("teacher")
        XCTAssertEqual(try count(liveInTheBook), 10_000)
        try syncs("student")
        XCTAssertEqual(try words("student", book: "TOEIC").count, 10_000)

        // Twenty books shared at once: a 21st is refused.
        try adminSQL("""
            INSERT INTO vocab.shares (id, owner, book, code) SELECT gen_random_uuid(), '\(teacher)', gen_random_uuid(),
                upper(substr(md5(random()::text), 1, 26)) FROM generate_series(1, 19)
            """)
        let tooMany = try on("teacher", ["share", "Diary"])
        XCTAssertNotEqual(tooMany.status, 0, tooMany.stderr)
        XCTAssertTrue(tooMany.stderr.contains("You may share 20 books at once"), tooMany.stderr)
        XCTAssertEqual(try count("SELECT count(*) FROM vocab.shares WHERE owner = '\(teacher)' AND ended IS NULL"), 20)

        // A hundred books followed at once: a 101st is refused.
        let other = try newUser("other")
        try adminSQL("""
            INSERT INTO vocab.shares (id, owner, book, code, title) SELECT gen_random_uuid(), '\(other)', gen_random_uuid(),
                upper(substr(md5(random()::text), 1, 26)), 'Book ' || g FROM generate_series(1, 100) g;
            INSERT INTO vocab.follows (follower, share) SELECT '\(student)', id FROM vocab.shares
                WHERE owner = '\(other)' AND title <> 'Book 100';
            """)
        let code = try adminSQL("SELECT code FROM vocab.shares WHERE owner = '\(other)' AND title = 'Book 100'")
        let oneMore = try on("student", ["follow", code])
        XCTAssertNotEqual(oneMore.status, 0, oneMore.stderr)
        XCTAssertTrue(oneMore.stderr.contains("You may follow 100 books at once"), oneMore.stderr)
        XCTAssertEqual(try count("SELECT count(*) FROM vocab.follows WHERE follower = '\(student)'"), 100)
        try syncs("student")  // the books he follows still arrive
        XCTAssertEqual(try words("student", book: "TOEIC").count, 10_000)

        // A book over 10,000 words cannot be shared; no share of it is made.
        try on("teacher", ["share", "TOEIC", "--stop"]).expectSuccess()
        try on("teacher", ["word", "add", "grown0", "--book", "TOEIC"]).expectSuccess()
        try syncs("teacher")
        let tooLarge = try on("teacher", ["share", "TOEIC"])
        XCTAssertNotEqual(tooLarge.status, 0, tooLarge.stderr)
        XCTAssertTrue(tooLarge.stderr.contains("A shared book may hold 10000 words at most"), tooLarge.stderr)
        XCTAssertEqual(try count("SELECT count(*) FROM vocab.shares WHERE owner = '\(teacher)' AND ended IS NULL"), 19)
    }

    func testUnfollowingRemovesTheBookFromEveryDeviceOfTheFollower() throws {
        let (_, _, link) = try teacherSharesABook()
        try on("student", ["follow", link]).expectSuccess()
        try syncs("student2")
        XCTAssertEqual(try words("student2", book: "TOEIC").count, 3)
        try on("student2", ["review", "benefit", "--rating", "good"]).expectSuccess()
        try syncs("student2")
        let stopped = try on("student", ["unfollow", "TOEIC"])
        XCTAssertEqual(stopped.status, 0, stopped.stderr)
        XCTAssertFalse(try on("student", ["book", "list"]).expectSuccess().contains("TOEIC"))
        let synced = try on("student2", ["sync"])
        XCTAssertEqual(synced.status, 0, synced.stderr)
        XCTAssertFalse(try on("student2", ["book", "list"]).expectSuccess().contains("TOEIC"), synced.stdout)
        XCTAssertFalse(try on("student2", ["sync"]).expectSuccess().contains("everything was pulled again"))
        let bad = try on("student", ["follow", "not-a-code"])
        XCTAssertEqual(bad.status, 1)
        XCTAssertTrue(bad.stderr.contains("not a share's code"), bad.stderr)
    }
}
