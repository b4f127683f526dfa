import Foundation
import XCTest

/// What the web app's pages do beyond studying, against the real `vocab serve`: words with ids
/// made on the phone (added once), edits, deletions and sound; books renamed and deleted (after a
/// backup); the test game, judged on the server and kept to the device that started it; imports
/// with progress and cancel, and exports.
final class ServeWordsGamesTransferTests: ServeTestCase {
    private func makeBook(_ name: String, words: [(String, String)], device: [String: String]) throws -> String {
        let made = try send("POST", "/api/books", body: #"{"name": "\#(name)"}"#, headers: device)
        XCTAssertEqual(made.status, 201, made.body)
        let bookId = try XCTUnwrap(made.object["id"] as? String)
        for (word, meaning) in words {
            let added = try send("POST", "/api/words", body: #"{"bookId": "\#(bookId)", "word": "\#(word)", "definition": "\#(meaning)"}"#, headers: device)
            XCTAssertEqual(added.status, 201, added.body)
        }
        return bookId
    }

    func testAWordMadeOnThePhoneIsAddedOnceAndEditedDeletedAndSpoken() throws {
        try startServer()
        let device = try pairForWrites()
        let bookId = try makeBook("TOEIC", words: [], device: device)
        let id = "0190aaaa-0000-7000-8000-0000000000a1"
        let word = #"{"id": "\#(id)", "bookId": "\#(bookId)", "word": "abandon", "definition": "to leave"}"#
        XCTAssertEqual(try send("POST", "/api/words", body: word, headers: device).status, 201)
        let again = try send("POST", "/api/words", body: word, headers: device)
        XCTAssertEqual(again.status, 200, "sent twice (a lost answer, a phone back online): added once")
        XCTAssertEqual(again.object["id"] as? String, id)
        XCTAssertEqual(try vocab.ok(["word", "list", "--book", "TOEIC", "--json"]).components(separatedBy: "\"abandon\"").count - 1, 1)
        XCTAssertEqual(try send("POST", "/api/words", body: #"{"id": "x", "bookId": "\#(bookId)", "word": "w"}"#, headers: device).status, 422)

        let edited = try send("PUT", "/api/words/\(id)", body: #"{"detail": "He abandoned the car.", "memorized": true}"#, headers: device)
        XCTAssertEqual(edited.status, 200, edited.body)
        XCTAssertEqual(edited.object["definition"] as? String, "to leave", "fields not sent stay")
        XCTAssertEqual(edited.object["memorized"] as? Bool, true)
        XCTAssertEqual(try send("PUT", "/api/words/\(id)", body: #"{"memorized": "yes"}"#, headers: device).status, 422)
        XCTAssertEqual(try send("PUT", "/api/words/\(id)", body: #"{"word": ""}"#, headers: device).object["field"] as? String, "word")
        let shown = try vocab.ok(["word", "show", "abandon"])
        XCTAssertTrue(shown.contains("He abandoned the car."), shown)

        let sound = try send("GET", "/api/words/\(id)/sound", headers: device)
        XCTAssertEqual(sound.status, 200)
        XCTAssertEqual(sound.headers["content-type"], "audio/wav")
        XCTAssertTrue(sound.body.hasPrefix("RIFF"), "a WAV file")

        XCTAssertEqual(try send("DELETE", "/api/words/\(id)", headers: device).object["deleted"] as? Bool, true)
        XCTAssertEqual(try send("DELETE", "/api/words/\(id)", headers: device).object["deleted"] as? Bool, false, "gone already: no error")
        let revived = try send("POST", "/api/words", body: word, headers: device)
        XCTAssertEqual(revived.object["deleted"] as? Bool, true, "a word deleted since stays deleted")
        XCTAssertFalse(try vocab.ok(["word", "list", "--book", "TOEIC"]).contains("abandon"))
    }

    /// A refusal that names a word and a book comes worded in the page's language, as the
    /// window words it (the page says which with X-Vocab-Language).
    func testARefusalNamingAWordComesInThePagesLanguage() throws {
        try startServer()
        let device = try pairForWrites()
        let bookId = try makeBook("TOEIC", words: [("abandon", "to leave")], device: device)
        let again = #"{"bookId": "\#(bookId)", "word": "abandon"}"#
        let english = try send("POST", "/api/words", body: again, headers: device)
        XCTAssertTrue((english.object["error"] as? String ?? "").contains("already in book"), english.body)
        var korean = device
        korean["X-Vocab-Language"] = "ko"
        let refused = try send("POST", "/api/words", body: again, headers: korean)
        XCTAssertEqual(refused.status, 422)
        XCTAssertEqual(refused.object["field"] as? String, "word")
        XCTAssertEqual(refused.object["error"] as? String, "“abandon”은(는) 이미 “TOEIC” 단어장에 있습니다.", refused.body)
    }

    func testABookIsRenamedAndDeletedAfterABackup() throws {
        try startServer()
        let device = try pairForWrites()
        let bookId = try makeBook("TOEIC", words: [("brave", "bold")], device: device)
        let renamed = try send("PUT", "/api/books/\(bookId)", body: #"{"name": "TOEIC 900"}"#, headers: device)
        XCTAssertEqual(renamed.status, 200, renamed.body)
        XCTAssertEqual(renamed.object["name"] as? String, "TOEIC 900")
        XCTAssertEqual(try send("PUT", "/api/books/\(bookId)", body: #"{"name": ""}"#, headers: device).object["field"] as? String, "name")
        let deleted = try send("DELETE", "/api/books/\(bookId)", headers: device)
        XCTAssertEqual(deleted.object["deleted"] as? Int, 1, deleted.body)
        XCTAssertEqual(deleted.object["backup"] as? Bool, true)
        let backups = try FileManager.default.contentsOfDirectory(atPath: vocab.home + "/backups")
        XCTAssertTrue(backups.contains { $0.contains("before-delete") }, "\(backups)")
        XCTAssertEqual(try send("DELETE", "/api/books/\(bookId)", headers: device).status, 404)
    }

    /// The page's Progress asks for the same report `stats --json` prints; a bad span or an
    /// unknown book is refused in the page's words.
    func testProgressIsTheReportTheTerminalPrints() throws {
        try startServer()
        let device = try pairForWrites()
        let bookId = try makeBook("TOEIC", words: [("brave", "bold"), ("keen", "eager")], device: device)
        let whole = try send("GET", "/api/progress?days=30", headers: device)
        XCTAssertEqual(whole.status, 200, whole.body)
        XCTAssertEqual(whole.object["days"] as? Int, 30)
        XCTAssertEqual((whole.object["standing"] as? [String: Any])?["new"] as? Int, 2)
        XCTAssertEqual(((whole.object["calendar"] as? [String: Any])?["reviews"] as? [Int])?.count, 30)
        let one = try send("GET", "/api/progress?book=\(bookId)", headers: device)
        XCTAssertEqual((one.object["books"] as? [[String: Any]])?.map { $0["name"] as? String }, ["TOEIC"])
        XCTAssertEqual(one.object["days"] as? Int, 365)
        let tooLong = try send("GET", "/api/progress?days=4000", headers: device)
        XCTAssertEqual(tooLong.status, 422, tooLong.body)
        XCTAssertEqual(tooLong.object["field"] as? String, "days")
        XCTAssertEqual(try send("GET", "/api/progress?days=x", headers: device).status, 422)
        XCTAssertEqual(try send("GET", "/api/progress?book=\(UUID().uuidString)", headers: device).status, 404)
        XCTAssertEqual(try send("GET", "/api/progress").status, 401, "a device not paired sees nothing")
    }

    func testAGameIsJudgedOnTheServerAndBelongsToItsDevice() throws {
        try startServer()
        let device = try pairForWrites()
        let bookId = try makeBook("TOEIC", words: [("brave", "bold"), ("eager", "keen to"), ("glad", "pleased"), ("keen", "sharp")], device: device)
        XCTAssertEqual(try send("POST", "/api/games", body: #"{"mode": "chess"}"#, headers: device).object["field"] as? String, "mode")
        XCTAssertEqual(try send("POST", "/api/games", body: #"{"count": 0}"#, headers: device).status, 422)
        let started = try send("POST", "/api/games", body: #"{"books": ["\#(bookId)"], "mode": "choice", "count": 3}"#, headers: device)
        XCTAssertEqual(started.status, 201, started.body)
        let gameId = try XCTUnwrap(started.object["id"] as? String)
        let questions = try XCTUnwrap(started.object["questions"] as? [[String: Any]])
        XCTAssertEqual(questions.count, 3)
        XCTAssertFalse(started.body.contains("correctOption"), "the page never gets the answers ahead")
        XCTAssertEqual(try send("POST", "/api/games/\(gameId)/answer", body: #"{"choice": 9}"#, headers: device).status, 422)

        // Another paired device cannot play or finish this game.
        let other = try pairForWrites(next: true)
        XCTAssertEqual(try send("POST", "/api/games/\(gameId)/answer", body: #"{"choice": 0}"#, headers: other).status, 404)

        var right = 0
        for _ in 0..<3 {
            let verdict = try send("POST", "/api/games/\(gameId)/answer", body: #"{"choice": 0}"#, headers: device)
            XCTAssertEqual(verdict.status, 200, verdict.body)
            let correct = try XCTUnwrap(verdict.object["correct"] as? Bool)
            XCTAssertEqual(correct, verdict.object["correctOption"] as? Int == 0)
            if correct { right += 1 }
        }
        let summary = try send("POST", "/api/games/\(gameId)/finish", headers: device)
        XCTAssertEqual(summary.object["answered"] as? Int, 3, summary.body)
        XCTAssertEqual(summary.object["right"] as? Int, right)
        XCTAssertEqual((summary.object["review"] as? [Any])?.count, 3 - right)
        let reviews = try ["brave", "eager", "glad", "keen"].map { word -> Int in
            let shown = try XCTUnwrap(try vocab.json(["word", "show", word, "--json"]) as? [String: Any])
            return (shown["schedule"] as? [String: Any])?["reviews"] as? Int ?? 0
        }
        XCTAssertEqual(reviews.reduce(0, +), 3, "each answer is in the store, as the window's and the terminal's are")
    }

    func testAnUploadIsImportedWithProgressCanBeCancelledAndABookIsExported() throws {
        try startServer()
        let device = try pairForWrites()
        let bookId = try makeBook("Uploads", words: [], device: device)
        let csv = Array("word,definition\nzeal,great energy\nzest,enthusiasm\n".utf8)
        // The name tells the format only: it never becomes a path.
        let started = try send("POST", "/api/imports?name=..%2F..%2Fescape.csv&book=\(bookId)", headers: device, rawBody: csv)
        XCTAssertEqual(started.status, 202, started.body)
        let outcome = try finished(try XCTUnwrap(started.object["id"] as? String), device: device)
        XCTAssertEqual(outcome["state"] as? String, "done", "\(outcome)")
        XCTAssertEqual((outcome["outcome"] as? [String: Any])?["added"] as? Int, 2)
        XCTAssertFalse(FileManager.default.fileExists(atPath: vocab.home + "/../escape.csv"))

        // A line with no word, left out when asked: the page hears which line and why.
        let skipping = try send("POST", "/api/imports?name=more.csv&book=\(bookId)&skipInvalid=1", headers: device,
                                rawBody: Array("word,definition\nzing,vigour\n,no word here\n".utf8))
        let skipped = try XCTUnwrap(try finished(try XCTUnwrap(skipping.object["id"] as? String), device: device)["outcome"] as? [String: Any])
        XCTAssertEqual(skipped["added"] as? Int, 1, "\(skipped)")
        XCTAssertEqual(skipped["rejectedCount"] as? Int, 1, "\(skipped)")
        let rejected = try XCTUnwrap((skipped["rejected"] as? [[String: Any]])?.first, "\(skipped)")
        XCTAssertEqual(rejected["line"] as? Int, 3, "\(rejected)")
        XCTAssertTrue((rejected["reason"] as? String ?? "").contains("word"), "\(rejected)")
        try vocab.ok(["word", "delete", "zing", "--book", "Uploads"])

        let export = try send("GET", "/api/books/\(bookId)/export?format=csv", headers: device)
        XCTAssertEqual(export.status, 200)
        XCTAssertTrue(export.headers["content-disposition"]?.contains("attachment; filename=\"Uploads.csv\"") ?? false, "\(export.headers)")
        XCTAssertTrue(export.body.contains("zeal,great energy") && export.body.contains("zest,enthusiasm"), export.body)
        XCTAssertEqual(try send("GET", "/api/books/\(bookId)/export?format=xlsx", headers: device).status, 422)

        // A malformed workbook: refused with the reason, nothing changed.
        let broken = try send("POST", "/api/imports?name=words.xlsx&book=\(bookId)", headers: device, rawBody: Array("PK\u{3}\u{4} not a workbook".utf8))
        let failed = try finished(try XCTUnwrap(broken.object["id"] as? String), device: device)
        XCTAssertEqual(failed["state"] as? String, "failed", "\(failed)")
        XCTAssertFalse((failed["error"] as? String ?? "").isEmpty)
        var korean = device
        korean["X-Vocab-Language"] = "ko"
        let brokenAgain = try send("POST", "/api/imports?name=words.xlsx&book=\(bookId)", headers: korean, rawBody: Array("PK\u{3}\u{4} not a workbook".utf8))
        let failedInKorean = try finished(try XCTUnwrap(brokenAgain.object["id"] as? String), device: korean)
        XCTAssertTrue((failedInKorean["error"] as? String ?? "").hasPrefix("words.xlsx은(는) 읽을 수 있는 zip 파일이 아닙니다"), "\(failedInKorean)")
        XCTAssertTrue((failedInKorean["error"] as? String ?? "").contains(".xlsx 통합 문서 형식이 맞나요?"), "\(failedInKorean)")
        XCTAssertEqual(try send("POST", "/api/imports?name=words.doc", headers: device, rawBody: csv).object["field"] as? String, "format")
        let unknownFormat = try send("POST", "/api/imports?name=words.doc", headers: korean, rawBody: csv).object
        XCTAssertTrue((unknownFormat["error"] as? String ?? "").contains("형식을 알 수 없습니다"), "\(unknownFormat)")

        // 100,000 rows, cancelled at once: all or nothing, so nothing.
        var big = "word,definition\n"
        for row in 0..<100_000 { big += "word\(row),meaning \(row)\n" }
        let long = try send("POST", "/api/imports?name=big.csv&book=\(bookId)", headers: device, rawBody: Array(big.utf8))
        let longId = try XCTUnwrap(long.object["id"] as? String)
        XCTAssertEqual(try send("DELETE", "/api/imports/\(longId)", headers: device).status, 200)
        XCTAssertEqual(try finished(longId, device: device)["state"] as? String, "cancelled")
        XCTAssertEqual(try send("GET", "/api/books/\(bookId)/words", headers: device).object["total"] as? Int, 2)

        // Larger than the upload bound: refused before it is kept.
        let huge = try send("POST", "/api/imports?name=huge.csv", headers: device, rawBody: [UInt8](repeating: 0x41, count: 33 << 20))
        XCTAssertEqual(huge.status, 413)
    }

    /// Polls an import until it is no longer running.
    private func finished(_ id: String, device: [String: String]) throws -> [String: Any] {
        for _ in 0..<600 {
            let state = try send("GET", "/api/imports/\(id)", headers: device).object
            if state["state"] as? String != "running" { return state }
            usleep(50_000)
        }
        XCTFail("the import did not end")
        return [:]
    }

    func testTheWindowFindsTheAddressAndTheCodeWhileTheServerRuns() throws {
        try startServer()
        let notice = vocab.home + "/web-serving"
        let text = try String(contentsOfFile: notice, encoding: .utf8)
        XCTAssertEqual(text, "http://127.0.0.1:\(port)/\n\(try pairingCode())\n")
        let mode = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: notice)[.posixPermissions] as? Int)
        XCTAssertEqual(mode & 0o777, 0o600)
        _ = try pair()  // a new code, at once in the notice
        XCTAssertTrue(try String(contentsOfFile: notice, encoding: .utf8).hasSuffix(try pairingCode(next: true) + "\n"))
        server?.interrupt()
        server?.waitUntilExit()
        XCTAssertFalse(FileManager.default.fileExists(atPath: notice), "gone when the server stops")
    }
}

/// A spreadsheet bomb through the phone's import: a workbook of a few hundred kilobytes whose
/// shared strings are 30 million empty `<si/>` (once, as an array of strings, well over a
/// gigabyte of the server's memory for a 3 MB file). It is refused with the reason, nothing is
/// imported, and the server's resident memory stays small.
final class ServeImportBombTests: ServeTestCase {
    func testAWorkbookOfMillionsOfEmptySharedStringsIsRefusedInBoundedMemory() throws {
        try startServer()
        let device = try pairForWrites()
        let books = try send("POST", "/api/books", body: #"{"name":"Bombed"}"#, headers: device)
        let bookId = try XCTUnwrap(books.object["id"] as? String, books.body)
        let bomb = vocab.file("bomb.xlsx")
        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        python.arguments = ["-c", """
            import sys, zipfile
            with zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
                z.writestr("[Content_Types].xml", '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>')
                z.writestr("xl/workbook.xml", '<workbook xmlns:r="r"><sheets><sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>')
                z.writestr("xl/_rels/workbook.xml.rels", '<Relationships><Relationship Id="rId1" Target="worksheets/sheet1.xml"/></Relationships>')
                z.writestr("xl/worksheets/sheet1.xml", '<worksheet><sheetData><row r="1"><c r="A1" t="s"><v>0</v></c></row></sheetData></worksheet>')
                with z.open("xl/sharedStrings.xml", "w", force_zip64=True) as part:
                    part.write(b'<sst count="30000000" uniqueCount="30000000">')
                    chunk = b"<si/>" * 1000000
                    for _ in range(30):
                        part.write(chunk)
                    part.write(b"</sst>")
            """, bomb]
        try python.run()
        python.waitUntilExit()
        XCTAssertEqual(python.terminationStatus, 0)
        let size = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: bomb)[.size] as? Int)
        XCTAssertLessThan(size, 4 << 20, "a small file")

        let started = try send("POST", "/api/imports?name=bomb.xlsx&book=\(bookId)", headers: device,
                               rawBody: Array(try Data(contentsOf: URL(fileURLWithPath: bomb))))
        XCTAssertEqual(started.status, 202, started.body)
        let id = try XCTUnwrap(started.object["id"] as? String)
        var state: [String: Any] = [:]
        XCTAssertTrue(try waitUntil(120) {
            state = try send("GET", "/api/imports/\(id)", headers: device).object
            // The innocent meanwhile: the learner's words, and a word added, while the bomb is read.
            if state["state"] as? String == "running" {
                XCTAssertEqual(try send("GET", "/api/books/\(bookId)/words", headers: device).status, 200)
            }
            return state["state"] as? String != "running"
        })
        XCTAssertEqual(state["state"] as? String, "failed", "\(state)")
        XCTAssertTrue((state["error"] as? String ?? "").contains("shared strings"), "\(state)")
        XCTAssertEqual(try send("GET", "/api/books/\(bookId)/words", headers: device).object["total"] as? Int, 0, "nothing imported")
        let added = try send("POST", "/api/words", body: #"{"bookId":"\#(bookId)","word":"after","definition":"still here"}"#, headers: device)
        XCTAssertEqual(added.status, 201, "the server serves a write once it is done: \(added.body)")
        // The most the server ever held in memory, from the kernel's own count.
        let status = try String(contentsOfFile: "/proc/\(try XCTUnwrap(server?.processIdentifier))/status", encoding: .utf8)
        let peakLine = try XCTUnwrap(status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") })
        let peakKiB = try XCTUnwrap(Int(peakLine.split(separator: " ", omittingEmptySubsequences: true)[1]))
        XCTAssertLessThan(peakKiB, 256 << 10, "the server's resident memory peaked at \(peakKiB >> 10) MiB")
    }
}
