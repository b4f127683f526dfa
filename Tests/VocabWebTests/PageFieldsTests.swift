import Foundation
import XCTest
@testable import VocabWeb
import VocabCloudAPI
import VocabCore

/// The page's JavaScript against the API's bodies (`WebRoute.bodies`): what it sends has only
/// fields its route takes, what it reads of an answer is in the answer, every field the
/// servers answer is read by the page, and the word form's fields are the API's. (Names are
/// matched with look-arounds, not `\b`: a Swift regex's word boundary is Unicode's, which
/// does not fall inside `answer.senses`.)
final class PageFieldsTests: XCTestCase {
    private let pages = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/VocabWeb/Pages")

    private func scripts() throws -> [(name: String, text: String)] {
        try FileManager.default.contentsOfDirectory(atPath: pages.path).filter { $0.hasSuffix(".js") && $0 != "sw.js" }.sorted()
            .map { ($0, try String(contentsOf: pages.appendingPathComponent($0), encoding: .utf8)) }
    }

    /// A route the page calls: the page's own (`WebRoute`), or one it shares with the devices
    /// (`DeviceRoute`, written `v1/…`): its name and its bodies.
    private struct PageCall {
        var rawValue: String
        var bodies: (request: (any Decodable.Type)?, answer: (any Codable.Type)?)
    }

    /// The route of a call as the page writes it (`api("PUT", `words/${id}`, …)`).
    private func route(_ method: Substring, _ path: Substring) -> PageCall? {
        let written = path.replacing(#/\$\{[^}]*\}/#, with: "*").split(separator: "?", maxSplits: 1).first ?? ""
        if written.hasPrefix("v1/") {
            return DeviceRoute.Shape.match(method: String(method), path: "/api/" + written).map {
                PageCall(rawValue: "\(method) \(written)", bodies: $0.shape.bodies)
            }
        }
        guard let route = WebRoute.match(method: String(method), path: written.split(separator: "/").map(String.init))?.route else { return nil }
        return PageCall(rawValue: route.rawValue, bodies: route.bodies)
    }

    /// The names at the top level of an object literal's text (between its braces): `key:`,
    /// shorthand `key`, spreads left out.
    static func topLevelKeys(_ literal: Substring) -> [String] {
        var keys: [String] = [], depth = 0, part = ""
        var quote: Character?
        func finish() {
            let trimmed = part.trimmingCharacters(in: .whitespacesAndNewlines)
            part = ""
            guard !trimmed.hasPrefix("..."), let name = trimmed.firstMatch(of: #/^([A-Za-z_$][A-Za-z0-9_$]*)\s*(:|$)/#)?.1 else { return }
            keys.append(String(name))
        }
        for character in literal {
            if let open = quote {
                if character == open { quote = nil }
                part.append(character)
                continue
            }
            switch character {
            case "\"", "'", "`": quote = character
            case "(", "[", "{": depth += 1
            case ")", "]", "}": depth -= 1
            case "," where depth == 0: finish(); continue
            default: break
            }
            part.append(character)
        }
        finish()
        return keys
    }

    /// The text of the braces that open at `start` (which is a `{`), without them.
    private static func braces(in text: String, from start: String.Index) -> Substring? {
        var depth = 0, index = start
        while index < text.endIndex {
            if text[index] == "{" { depth += 1 }
            if text[index] == "}" {
                depth -= 1
                if depth == 0 { return text[text.index(after: start)..<index] }
            }
            index = text.index(after: index)
        }
        return nil
    }

    func testEveryBodyThePageSendsHasOnlyFieldsItsRouteTakes() throws {
        var checked = 0
        for (name, text) in try scripts() {
            for match in text.matches(of: #/api\(\s*"([A-Z]+)",\s*["`]([^"`]+)["`],\s*\{/#) {
                let call = "\(name): \(match.1) \(match.2)"
                let route = try XCTUnwrap(route(match.1, match.2), call)
                let request = try XCTUnwrap(route.bodies.request, "\(call) sends a body its route does not take")
                let literal = try XCTUnwrap(Self.braces(in: text, from: text.index(before: match.range.upperBound)), call)
                let taken = FieldNames.of(request)
                for key in Self.topLevelKeys(literal) {
                    XCTAssertTrue(taken.contains(key), "\(call) sends \"\(key)\", which \(request) does not take: \(taken.sorted())")
                    checked += 1
                }
            }
        }
        XCTAssertGreaterThan(checked, 12, "the page's bodies were found")
        // The outbox's reviews, each as the route takes it.
        let outbox = try XCTUnwrap(try scripts().first { $0.name == "outbox.js" }?.text)
        let review = try XCTUnwrap(outbox.firstMatch(of: #/reviews: batch\.map\(\(\{ ([^}]*) \}\)/#)?.1)
        XCTAssertEqual(Set(review.split(separator: ",").map { "reviews." + $0.trimmingCharacters(in: .whitespaces) }),
                       FieldNames.of(ReviewsRequest.self).subtracting(["reviews"]))
    }

    func testWhatThePageReadsOfAnAnswerIsInIt() throws {
        var checked = 0
        for (name, text) in try scripts() {
            // `const answer = await api("GET", "session");` … `answer.signedIn`, up to the name's next use for another answer.
            let assignments = text.matches(of: #/(?:const|let|var)?\s*([a-z][A-Za-z]*) = await api\(\s*"([A-Z]+)",\s*["`]([^"`]+)["`]/#)
            for (index, match) in assignments.enumerated() {
                let route = try XCTUnwrap(route(match.2, match.3), "\(name): \(match.2) \(match.3)")
                guard let answer = route.bodies.answer else { continue }
                let known = Set(FieldNames.of(answer).map { String($0.split(separator: ".").last ?? "") })
                let end = assignments.dropFirst(index + 1).first { $0.1 == match.1 }?.range.lowerBound ?? text.endIndex
                let variable = String(match.1)
                for read in text[match.range.upperBound..<end].matches(of: try Regex<(Substring, Substring)>("(?:^|[^A-Za-z0-9_$])\(variable)\\.([A-Za-z]+)(?![A-Za-z0-9_$])")) {
                    // A list's own, and what the page adds to an answer it makes itself offline.
                    guard !["length", "map", "filter", "forEach", "slice", "find", "some", "offline"].contains(String(read.1)) else { continue }
                    XCTAssertTrue(known.contains(String(read.1)), "\(name) reads \(variable).\(read.1) of \(route.rawValue), whose answer has \(known.sorted())")
                    checked += 1
                }
            }
            // `const { version: now } = await api("GET", "changes");`
            for match in text.matches(of: #/const \{([^}]*)\} = await api\(\s*"([A-Z]+)",\s*["`]([^"`]+)["`]/#) {
                let route = try XCTUnwrap(route(match.2, match.3))
                let known = FieldNames.of(try XCTUnwrap(route.bodies.answer))
                for key in Self.topLevelKeys(match.1) {
                    XCTAssertTrue(known.contains(key), "\(name) takes \(key) of \(route.rawValue)")
                    checked += 1
                }
            }
        }
        XCTAssertGreaterThan(checked, 15, "the page's reads were found")
    }

    func testEveryFieldTheServersAnswerIsReadByThePage() throws {
        let page = try scripts().map(\.text).joined(separator: "\n")
        // What the page does not show, and why it is answered all the same.
        let notForThePage: Set<String> = [
            "wordsPerPage",  // a bound: the page asks for fewer (50) at a time
            "signedOut",  // how many devices a sign-out signed out: the page lists them again
            "notes", "createdBooks", "reviewsAdded",  // an import's details beyond its counts (the terminal shows them)
            "planned",  // a game's length: the page counts the questions it was given
            "madeAt",  // kept with the study queue on the phone, for a look at how old it is
            "coverWord",  // the book's word for its cover, edited in the window; the page shows the picture
            "ended", "latest",  // a followed book's state for a device's sync (the server's store of the learner keeps it)
            "unfollowed",  // whether the book was followed: the page shows the shelf again either way
        ]
        // The word form's fields, read by name from the list of them (`word[name]`).
        let words = try XCTUnwrap(try scripts().first { $0.name == "words.js" }?.text)
        let formFields = Set(try XCTUnwrap(words.firstMatch(of: #/const fields = \[([^\]]*)\];/#)?.1)
            .split(separator: ",").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: " \"")) })
        var missing: [String] = []
        for route in WebRoute.allCases {
            guard let answer = route.bodies.answer else { continue }
            for field in FieldNames.of(answer) {
                let leaf = String(field.split(separator: ".").last ?? "")
                if notForThePage.contains(leaf) || formFields.contains(leaf) { continue }
                if page.firstMatch(of: try Regex("(?:\\.|\\{|,|\\s)\(leaf)(?![A-Za-z0-9_$])")) == nil { missing.append("\(route.rawValue): \(field)") }
            }
        }
        XCTAssertEqual(missing, [], "fields answered that no script of the page reads")
    }

    func testTheWordFormsFieldsAreTheAPIs() throws {
        let words = try XCTUnwrap(try scripts().first { $0.name == "words.js" }?.text)
        let listed = try XCTUnwrap(words.firstMatch(of: #/const fields = \[([^\]]*)\];/#)?.1)
            .split(separator: ",").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: " \"")) }
        XCTAssertEqual(Set(listed), FieldNames.of(WordFields.self))
        XCTAssertEqual(Set(listed), Set(WordField.allCases.map(\.rawValue)))
    }

    func testTheRecorderFindsNestedNamesAndListsElements() {
        XCTAssertEqual(FieldNames.of(ReviewsRequest.self), ["reviews", "reviews.id", "reviews.wordId", "reviews.rating", "reviews.at"])
        XCTAssertTrue(FieldNames.of(NextCardAnswer.self).isSuperset(of: ["card", "card.word", "intervals.interval", "reason"]))
        XCTAssertTrue(FieldNames.of([BookRow].self).contains("wordCount"))
    }

    func testTopLevelKeysLeaveOutSpreadsAndNestedObjects() {
        XCTAssertEqual(Self.topLevelKeys(#" id: entry.id, bookId, ...entry.fields, x: { y: 1, z: "a,b" } "#), ["id", "bookId", "x"])
    }
}
