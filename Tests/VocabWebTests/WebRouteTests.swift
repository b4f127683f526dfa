import Foundation
import XCTest
@testable import VocabWeb
import VocabCloudAPI

/// The page's JavaScript against the API's one definition (`WebRoute`): every call it makes is
/// a route the servers answer, and the service worker keeps every file the page needs.
final class WebRouteTests: XCTestCase {
    /// Pages/, read from the source tree (what the build embeds).
    private let pages = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/VocabWeb/Pages")

    private func scripts() throws -> [(name: String, text: String)] {
        try FileManager.default.contentsOfDirectory(atPath: pages.path).filter { $0.hasSuffix(".js") }.sorted().map { name in
            (name, try String(contentsOf: pages.appendingPathComponent(name), encoding: .utf8))
        }
    }

    /// A path as the page writes it ("books/${book.id}/words?offset=…") as the route table's
    /// parts (["books", "*", "words"]).
    private func parts(_ written: String) -> [String] {
        let path = written.replacing(#/\$\{[^}]*\}/#, with: "*").split(separator: "?", maxSplits: 1).first ?? ""
        return path.split(separator: "/").map(String.init)
    }

    /// Every `api("METHOD", "path" | `path`)` call, and every `/api/…` address the page opens
    /// itself (an export link, an upload, a sound): (file, method, path parts).
    private func calls() throws -> [(file: String, method: String, parts: [String])] {
        var found: [(String, String, [String])] = []
        for (name, text) in try scripts() {
            for match in text.matches(of: #/api\(\s*"([A-Z]+)",\s*["`]([^"`]+)["`]/#) {
                found.append((name, String(match.1), parts(String(match.2))))
            }
            for match in text.matches(of: #/request\.open\("([A-Z]+)",\s*`/api/([^`]+)`/#) {
                found.append((name, String(match.1), parts(String(match.2))))
            }
            for match in text.matches(of: #/(?:new Audio\(|=>\s*)`/api/([^`]+)`/#) {
                found.append((name, "GET", parts(String(match.1))))
            }
        }
        return found
    }

    func testEveryCallOfThePageIsARouteOfTheTable() throws {
        let found = try calls()
        XCTAssertGreaterThan(found.count, 25, "the page's calls were found: \(found.map { "\($0.method) \($0.parts)" })")
        for call in found {
            // `v1/…`: a route the page shares with the devices (only the credential differs).
            if call.parts.first == "v1" {
                XCTAssertNotNil(DeviceRoute.Shape.match(method: call.method, path: "/api/" + call.parts.joined(separator: "/")),
                                "\(call.file): \(call.method) /api/\(call.parts.joined(separator: "/")) is no route of DeviceRoute")
                continue
            }
            XCTAssertNotNil(WebRoute.match(method: call.method, path: call.parts),
                            "\(call.file): \(call.method) /api/\(call.parts.joined(separator: "/")) is no route of WebRoute")
        }
        let shared = Set(found.compactMap { DeviceRoute.Shape.match(method: $0.method, path: "/api/" + $0.parts.joined(separator: "/"))?.shape })
        XCTAssertEqual(shared, [.devices, .signOutDevice, .signOut, .catalog, .unshare, .backups, .restoreBackup],
                       "the page's routes that are the devices' (issue 69: served twice before)")
        let used = Set(found.compactMap { WebRoute.match(method: $0.method, path: $0.parts)?.route })
        for route in [WebRoute.export, .startImport, .sound, .meta, .session, .addReviews] {
            XCTAssertTrue(used.contains(route), "the page uses \(route.rawValue)")
        }
    }

    /// The other direction: every route of the table has a caller in the page, or a reason here
    /// why not (issue 69: `POST study/grade` was served and nothing called it).
    func testEveryRouteOfTheTableIsCalledByThePageOrSaysWhyNot() throws {
        let notFromThePage: [WebRoute: String] = [
            .cover: "the book list gives its address (BookRow.cover), which the page shows as an <img>",
        ]
        let used = Set(try calls().compactMap { WebRoute.match(method: $0.method, path: $0.parts)?.route })
        for route in WebRoute.allCases where !used.contains(route) {
            XCTAssertNotNil(notFromThePage[route], "\(route.rawValue) is served but nothing calls it")
        }
        for route in notFromThePage.keys { XCTAssertFalse(used.contains(route), "\(route.rawValue) is called after all") }
    }

    func testTheTableMatchesByMethodAndPathAndTellsAWrongMethodFromNoRoute() {
        XCTAssertEqual(WebRoute.match(method: "GET", path: ["books", "abc", "words"])?.route, .words)
        XCTAssertEqual(WebRoute.match(method: "GET", path: ["books", "abc", "words"])?.ids, ["abc"])
        XCTAssertEqual(WebRoute.match(method: "POST", path: ["games", "g", "answer"])?.route, .answerGame)
        XCTAssertNil(WebRoute.match(method: "POST", path: ["games", "g", "other"]))
        XCTAssertNil(WebRoute.match(method: "PATCH", path: ["books"]))
        XCTAssertTrue(WebRoute.knows(path: ["books"]))
        XCTAssertFalse(WebRoute.knows(path: ["nothing"]))
        XCTAssertEqual(Set(WebRoute.allCases.map(\.rawValue)).count, WebRoute.allCases.count)
    }

    func testTheServiceWorkerKeepsEveryFileOfThePageUnderANameMadeFromTheirContents() throws {
        let worker = try XCTUnwrap(WebPages.files["/sw.js"])
        let text = String(decoding: worker.plain, as: UTF8.self)
        let listed = try XCTUnwrap(text.firstMatch(of: #/const FILES = \[([^\]]*)\];/#)).1
            .split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\"")) }
        let onDisk = try FileManager.default.contentsOfDirectory(atPath: pages.path).filter { $0 != "sw.js" && $0 != "index.html" }
        XCTAssertEqual(Set(listed), Set(["/"] + onDisk.map { "/" + $0 }), "every file but the worker, and the page as /")
        XCTAssertNotNil(text.firstMatch(of: #/const SHELL = "vocab-shell-[0-9a-f]{12}";/#), text.prefix(200).description)
        XCTAssertTrue(text.contains("addEventListener(\"fetch\""), "the worker's own code follows")
        XCTAssertEqual(WebPages.files["/favicon.ico"]?.type, "image/png")
    }
}
