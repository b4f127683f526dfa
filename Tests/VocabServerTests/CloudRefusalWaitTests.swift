import Foundation
import XCTest
import VocabCatalog
import VocabCloudAPI
@testable import VocabServer
import VocabWeb

/// What a device is told when the cloud cannot be reached, at each place a request meets the
/// cloud: always a 503 with a Retry-After, so a device tries again (DESIGN.md §14). Issue 69
/// found the device check of a device this server had not met yet answering 503 without one.
final class CloudRefusalWaitTests: XCTestCase {
    private var folder = ""

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("cloud-refusal-\(UUID().uuidString)").path
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: folder)
    }

    func testADeviceCheckWithTheCloudOutOfReachIsAnswered503WithRetryAfter() throws {
        // Port 1 on loopback: nothing listens, the connection is refused at once.
        let settings = CloudWebApp.Settings(server: ServerAddress(host: "127.0.0.1", port: 1, database: "vocab", user: "vocab_server"),
                                            cacheFolder: folder, cacheBytes: 1 << 30, scheme: "http",
                                            timeouts: CloudTimeouts(connectSeconds: 2, statementSeconds: 5, lockSeconds: 1))
        let app = try CloudWebApp(settings: settings, catalogs: [Catalog()]) { pool in try WebApp(pool: pool, pairing: nil) }
        let device = DeviceKey(id: "vd_" + String(repeating: "1", count: 32), secret: String(repeating: "a", count: 64)).token
        for path in ["/api/v1/sync/pull", "/api/v1/account"] {
            let answer = app.handle(HTTPRequest(method: "GET", path: path, query: ["after": "0"], headers: ["authorization": "Bearer " + device],
                                                peer: "127.0.0.1"))
            XCTAssertEqual(answer.status, 503, path)
            XCTAssertEqual(answer.headers.first { $0.0 == "Retry-After" }?.1, "2", path)
            let problem = try DeviceAPI.decode(DeviceAPI.Problem.self, from: answer.body)
            XCTAssertEqual(problem.error, "The cloud cannot be reached now: try again in a moment.")
        }
    }
}
