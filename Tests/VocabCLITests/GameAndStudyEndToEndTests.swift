import Foundation
import XCTest

/// Playing and studying from a pipe, with the real binary.
final class GameAndStudyEndToEndTests: EndToEndTestCase {
    private func addFruit() throws {
        try vocab.ok(["book", "add", "Fruit"])
        for (word, meaning) in [("apple", "사과"), ("banana", "바나나"), ("cherry", "체리"), ("grape", "포도"), ("melon", "멜론")] {
            try vocab.ok(["word", "add", word, "--book", "Fruit", "-d", meaning])
        }
    }

    /// The numbers of the right options, read from a game's output for the given answers.
    private func rightOptions(in output: String) -> [String] {
        output.components(separatedBy: "\n").compactMap { line -> String? in
            guard let range = line.range(of: "the answer is ") ?? line.range(of: "✓ Right: ") else { return nil }
            return line[range.upperBound...].split(separator: ".").first.map(String.init)
        }
    }

    func testAChoiceGameFromAPipeIsReproducibleScoredAndSaved() throws {
        try addFruit()
        let probe = try vocab.ok(["game", "--book", "fruit", "--count", "5", "--seed", "11"], input: "1\n1\n1\n1\n1\n")
        let right = rightOptions(in: probe)
        XCTAssertEqual(right.count, 5, probe)
        // Same seed, the right answers this time: every question is the same, so all are right.
        let answers = right.joined(separator: "\n") + "\n"
        let arguments = ["game", "--book", "fruit", "--count", "5", "--seed", "11", "--memorize-after", "2"]
        let perfect = try vocab.ok(arguments, input: answers)
        XCTAssertTrue(perfect.contains("Score: 5/5 (100%)"), perfect)
        let again = try vocab.ok(arguments, input: answers)
        XCTAssertTrue(again.contains("Right 2 times in a row"), again)
        XCTAssertTrue(again.contains("vocab word memorize"), "suggests memorising words right twice in a row: \(again)")
        let stats = try XCTUnwrap(try vocab.json(["stats", "--json"]) as? [String: Any])
        XCTAssertEqual(stats["games"] as? Int, 3)
        XCTAssertEqual(stats["answered"] as? Int, 15)
        XCTAssertEqual(stats["reviews"] as? Int, 15, "every answer is a review")
    }

    func testQuittingEarlyKeepsWhatWasAnswered() throws {
        try addFruit()
        let output = try vocab.ok(["game", "--mode", "spelling", "--count", "5", "--seed", "3"], input: "apple\nq\n")
        XCTAssertTrue(output.contains("stopped after 1 of 5"), output)
        let stats = try XCTUnwrap(try vocab.json(["stats", "--json"]) as? [String: Any])
        XCTAssertEqual(stats["answered"] as? Int, 1)
        let games = try XCTUnwrap(stats["recentGames"] as? [[String: Any]])
        XCTAssertEqual(games.first?["planned"] as? Int, 5)
    }

    func testEndOfInputEndsTheGameCleanly() throws {
        try addFruit()
        let output = try vocab.ok(["game", "--mode", "reverse", "--count", "3", "--seed", "5"], input: "")
        XCTAssertTrue(output.contains("Score: 0/0"), output)
    }

    func testGamesThatCannotStartSayWhy() throws {
        XCTAssertTrue(try vocab.fails(["game"], status: 1).contains("no books"))
        try vocab.ok(["book", "add", "Empty"])
        XCTAssertTrue(try vocab.fails(["game", "--book", "empty"], status: 1).contains("has no words yet"))
        try vocab.fails(["game", "--book", "nope"], status: 1)
        try vocab.ok(["word", "add", "solo", "--book", "Empty", "-d", "alone", "--memorized"])
        XCTAssertTrue(try vocab.fails(["game", "--book", "empty"], status: 1).contains("--include-memorized"))
        try vocab.ok(["word", "add", "duo", "--book", "Empty", "-d", "alone"])
        XCTAssertTrue(try vocab.fails(["game", "--book", "empty", "--include-memorized"], status: 1).contains("--mode spelling"))
        let played = try vocab.ok(["game", "--book", "empty", "--include-memorized", "--mode", "spelling", "--count", "5", "--order", "oldest"], input: "solo\nduo\n")
        XCTAssertTrue(played.contains("Only 2 words are available; playing 2."), played)
        XCTAssertTrue(played.contains("Score: 2/2"), played)
        try vocab.fails(["game", "--book", "empty", "--mode", "quiz"], status: 2)
        // A game's length is the session's rule: the page is refused in the same sentence (issue 69).
        XCTAssertTrue(try vocab.fails(["game", "--book", "empty", "--count", "0"], status: 1).contains("A game has 1 to 100 questions, not 0."))
        XCTAssertTrue(try vocab.fails(["game", "--book", "empty", "--count", "500"], status: 1).contains("A game has 1 to 100 questions, not 500."))
    }

    func testStudyOnFollowingDaysFollowsTheSchedule() throws {
        try addFruit()
        let day1 = "2026-12-01T09:00:00Z"
        let first = try vocab.ok(["study", "--now", day1, "--new", "2"], input: "3\n3\n")
        XCTAssertTrue(first.contains("0 words due, 2 new words"), first)
        XCTAssertTrue(first.contains("Studied 2 words"), first)
        // Ten minutes later both are due again (second learning step); good graduates them.
        let later = try vocab.ok(["study", "--now", "2026-12-01T09:11:00Z", "--new", "2"], input: "3\n3\n")
        XCTAssertTrue(later.contains("2 words due, 0 new words"), later)
        let show = try XCTUnwrap(try vocab.json(["word", "show", "apple", "--json"]) as? [String: Any])
        let schedule = try XCTUnwrap(show["schedule"] as? [String: Any])
        XCTAssertEqual(schedule["state"] as? String, "review")
        XCTAssertEqual(schedule["reviews"] as? Int, 2)
        let due = try XCTUnwrap(schedule["due"] as? String)
        XCTAssertGreaterThan(due, "2026-12-02")
        // The next day: nothing due yet, the daily limit gives new words again.
        let day2 = try XCTUnwrap(try vocab.json(["due", "--json", "--now", "2026-12-02T09:00:00Z"]) as? [String: Any])
        XCTAssertEqual((day2["due"] as? [Any])?.count, 0)
        XCTAssertEqual(day2["newWords"] as? Int, 3)
        let reviewed = try vocab.ok(["review", "cherry", "--rating", "easy", "--now", "2026-12-02T09:00:00Z"])
        XCTAssertTrue(reviewed.contains("review, due in"), reviewed)
        try vocab.fails(["review", "cherry", "--rating", "perfect"], status: 2)
        try vocab.fails(["review", "cherry"], status: 2)
        try vocab.fails(["study", "--now", "tomorrow"], status: 2)
    }

    /// Issue 26, as measured: at 08:00 and again at 10:00 the same Seoul morning (two UTC days)
    /// a learner got 20 new words each time. The day now starts at 4 a.m. where the learner is.
    func testANewStudyDayStartsAt4AMWhereTheLearnerIs() throws {
        try vocab.ok(["book", "add", "Many"])
        let csv = "word,definition\n" + (0..<30).map { "w\($0),meaning \($0)\n" }.joined()
        try Data(csv.utf8).write(to: URL(fileURLWithPath: vocab.file("many.csv")))
        try vocab.ok(["import", vocab.file("many.csv"), "--book", "Many"])
        let seoul = ["TZ": "Asia/Seoul"]
        func study(at time: String, environment: [String: String] = seoul) throws -> String {
            let result = try vocab.run(["study", "--now", time, "--new", "5"], input: "q\n", environment: environment)
            XCTAssertEqual(result.status, 0, result.stderr)
            return result.stdout
        }
        func learnFive(at time: String) throws {
            let result = try vocab.run(["study", "--now", time, "--new", "5"], input: String(repeating: "4\n", count: 5), environment: seoul)
            XCTAssertTrue(result.stdout.contains("Studied 5 words"), result.stdout + result.stderr)
        }
        try learnFive(at: "2026-12-01T23:00:00Z")                         // 08:00 in Seoul, December 2
        XCTAssertTrue(try study(at: "2026-12-02T01:00:00Z").contains("0 new words") ||   // 10:00: the same day
                      (try study(at: "2026-12-02T01:00:00Z")).contains("Nothing to study"))
        XCTAssertTrue(try study(at: "2026-12-02T18:59:00Z").contains("Nothing to study"))  // 03:59 December 3: still the 2nd
        XCTAssertTrue(try study(at: "2026-12-02T19:00:00Z").contains("5 new words"))      // 04:00: a new day
        // The hour is the learner's: config.json's dayStartHour.
        let config = vocab.file("config")
        try FileManager.default.createDirectory(atPath: config + "/vocab", withIntermediateDirectories: true)
        try #"{"dayStartHour": 0}"#.write(toFile: config + "/vocab/config.json", atomically: true, encoding: .utf8)
        var midnight = seoul
        midnight["XDG_CONFIG_HOME"] = config
        XCTAssertTrue(try study(at: "2026-12-02T15:00:00Z", environment: midnight).contains("5 new words"))  // 00:00 in Seoul
        try #"{"dayStartHour": 25}"#.write(toFile: config + "/vocab/config.json", atomically: true, encoding: .utf8)
        let refused = try vocab.run(["study", "--now", "2026-12-02T15:00:00Z"], environment: midnight)
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.stderr.contains("dayStartHour"), refused.stderr)
    }

    func testTheStarterBookGivesANewUserAGameAtOnce() throws {
        XCTAssertTrue(try vocab.ok([]).contains("vocab starter"))
        XCTAssertTrue(try vocab.ok(["starter"]).contains("300 words"))
        XCTAssertTrue(try vocab.ok(["starter"]).contains("already here"))
        let happy = try XCTUnwrap(try vocab.json(["word", "show", "good", "--json"]) as? [String: Any])
        XCTAssertTrue((happy["antonym"] as? String ?? "").contains("bad"), "\(happy)")
        let output = try vocab.ok(["game", "--count", "3", "--seed", "1"], input: "1\n2\n3\n")
        XCTAssertTrue(output.contains("Score:"), output)
        XCTAssertTrue(try vocab.ok(["starter", "--licence"]).contains("Princeton University"))
    }
}
