import XCTest
import VocabCatalog
import VocabCloudAPI
import VocabCore
import VocabWording

/// Every refusal the cloud's SQL can raise reaches a device in Vocab's words: the bounds
/// (SQLSTATE 53400, 54000) carry their values in DETAIL, read back as a `CloudLimit` with its
/// sentence; sharing's (VSnnn) are `ShareRefusal`s; the few others are mapped by the server to
/// answers of its own (listed here with why). A new RAISE that is none of these fails this test.
final class CloudRefusalTests: XCTestCase {
    private static let sqlFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Sources/VocabCloud/SQL").standardizedFileURL.path

    /// SQLSTATEs the server words itself, and why.
    private let wordedByTheServer: [String: String] = [
        "42501": "a device signed out or no such learner: 401, sign in again",
        "22023": "a device without its secret's hash: the server always sends one",
        "VS099": "a batch that came before its predecessor: retried by the device",
        "P0001": "a guard against a misuse by the server itself: 400 in the server's words",
    ]

    func testEveryRefusalOfTheSQLIsSaidInVocabsWords() throws {
        let korean = Wording(catalog: Catalog.load(language: "ko", environment: [:], executable: "/nonexistent/vocab"))
        var seen = 0
        for file in ["functions.sql", "sharing.sql"] {
            let text = try String(contentsOfFile: Self.sqlFolder + "/" + file, encoding: .utf8)
            // Each RAISE EXCEPTION up to the end of its statement.
            for raise in text.components(separatedBy: "RAISE EXCEPTION").dropFirst() {
                let statement = String(raise[..<(raise.range(of: ";\n")?.lowerBound ?? raise.endIndex)])
                let state = statement.firstMatch(of: /ERRCODE = '([0-9A-Z]{5})'/).map { String($0.1) } ?? "P0001"
                seen += 1
                switch state {
                case "53400", "54000":
                    let detail = try XCTUnwrap(statement.firstMatch(of: #/DETAIL = '([a-z]+)[ ']/#).map { String($0.1) }, "no DETAIL in \(statement)")
                    let values = detail == "record" ? "record word 1" : detail + " 1 2"
                    let limit = CloudLimit(detail: detail == "devices" || detail == "hourly" ? detail + " 10" : values)
                    XCTAssertNotEqual(limit, .unknown, "\(file): DETAIL \(detail) is not read back: \(statement)")
                    XCTAssertFalse(korean.sentence(CloudError.quotaExceeded(limit).sentence).contains("%@"))
                    XCTAssertNotEqual(korean.sentence(limit.sentence), limit.sentence.english, "\(detail) has Korean")
                case let code where code.hasPrefix("VS") && code != "VS099":
                    XCTAssertNotNil(ShareRefusal(sqlState: code), "\(file): \(code) is no ShareRefusal: \(statement)")
                default:
                    XCTAssertNotNil(wordedByTheServer[state], "\(file): SQLSTATE \(state) reaches no wording of Vocab's: \(statement)")
                }
            }
        }
        XCTAssertGreaterThan(seen, 20, "the SQL's refusals were found")
    }
}
