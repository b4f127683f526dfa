@testable import VocabCloudAPI
import VocabCore
import XCTest

/// The device API declared once: every call a device prints is parsed back by the server to the
/// same call — ids, query values and all — and nothing else is a route.
final class DeviceRouteTests: XCTestCase {
    /// An example of each shape's call. The switch names every shape: a new one does not
    /// compile here until it is given.
    private func example(_ shape: DeviceRoute.Shape) -> DeviceRoute {
        switch shape {
        case .signIn: return .signIn
        case .health: return .health
        case .account: return .account
        case .pull: return .pull(after: 42, limit: 500)
        case .push: return .push(token: 7, intoEmptyAccount: true, merging: true)
        case .devices: return .devices
        case .signOutDevice: return .signOutDevice("vd_1a2b")
        case .signOut: return .signOut
        case .share: return .share
        case .shares: return .shares
        case .unshare: return .unshare("0b0e3c5a-3c2e-4f7a-9d1e-5a6b7c8d9e0f")
        case .follow: return .follow
        case .follows: return .follows
        case .unfollow: return .unfollow("1c1e3c5a-3c2e-4f7a-9d1e-5a6b7c8d9e0f")
        case .followedRecords: return .followedRecords("2d2e3c5a-3c2e-4f7a-9d1e-5a6b7c8d9e0f", after: 3, limit: 2_000)
        case .followChanges: return .followChanges(limit: 100)
        case .catalog: return .catalog(CatalogQuery(text: "토익 & more", languages: "ko-en", byFollowers: true, limit: 30))
        case .backups: return .backups
        case .restoreBackup: return .restoreBackup("3e3e3c5a-3c2e-4f7a-9d1e-5a6b7c8d9e0f")
        }
    }

    /// What the server parses from what a device printed (its query decoded as the server's does).
    private func parsed(_ route: DeviceRoute) throws -> DeviceRoute? {
        let parts = route.target.split(separator: "?", maxSplits: 1).map(String.init)
        var query: [String: String] = [:]
        for pair in (parts.count > 1 ? parts[1] : "").split(separator: "&") {
            let kv = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            query[kv[0]] = PercentEncoding.decode(kv.count > 1 ? kv[1] : "") ?? ""
        }
        return try DeviceRoute(method: route.method, path: parts[0], query: query)
    }

    func testEveryCallIsParsedBackFromWhatADevicePrints() throws {
        XCTAssertEqual(DeviceRoute.Shape.allCases.count, 19)
        for shape in DeviceRoute.Shape.allCases {
            let route = example(shape)
            XCTAssertEqual(route.shape, shape)
            XCTAssertEqual(try parsed(route), route, route.target)
        }
        let spelled = DeviceRoute.Shape.allCases.map { "\($0.method) \($0.path.joined(separator: "/"))" }
        XCTAssertEqual(Set(spelled).count, spelled.count, "no two shapes alike")
    }

    func testAddressesAreSpelledAsTheServerAlwaysAnsweredThem() throws {
        XCTAssertEqual(DeviceRoute.push(token: 3, intoEmptyAccount: false, merging: true).target, "/api/v1/sync/push?token=3&fresh=0&merge=1")
        XCTAssertEqual(DeviceRoute.pull(after: 0, limit: 2_000).target, "/api/v1/sync/pull?after=0&limit=2000")
        XCTAssertEqual(try DeviceRoute(method: "GET", path: "/api/v1/follows/abc/records", query: ["after": "5"]),
                       .followedRecords("abc", after: 5, limit: PullBounds.defaultRecords))
        XCTAssertEqual(try DeviceRoute(method: "POST", path: "/api/v1/follows/changes"), .followChanges(limit: PullBounds.defaultRecords))
        XCTAssertEqual(try DeviceRoute(method: "DELETE", path: "/api/v1/devices/vd_9"), .signOutDevice("vd_9"))
    }

    func testAQueryItCannotReadIsRefusedAndBoundsAreKept() throws {
        XCTAssertThrowsError(try DeviceRoute(method: "GET", path: "/api/v1/sync/pull")) { XCTAssertEqual($0 as? Refusal, .notAChangeNumber("after")) }
        XCTAssertThrowsError(try DeviceRoute(method: "POST", path: "/api/v1/sync/push", query: ["token": "-1"])) {
            XCTAssertEqual($0 as? Refusal, .notAChangeNumber("token"))
        }
        XCTAssertEqual(try DeviceRoute(method: "GET", path: "/api/v1/sync/pull", query: ["after": "1", "limit": "999999"]),
                       .pull(after: 1, limit: PullBounds.mostRecords))
        XCTAssertEqual(try DeviceRoute(method: "GET", path: "/api/v1/catalog", query: ["limit": "0"]), .catalog(CatalogQuery(limit: 1)))
    }

    func testAnythingElseIsNoRoute() throws {
        for (method, path) in [("GET", "/api/v1/"), ("GET", "/api/v1/sync"), ("POST", "/api/v1/sync/pull"), ("DELETE", "/api/v1/devices/"),
                               ("DELETE", "/api/v1/devices"), ("GET", "/api/v1/follows//records"), ("GET", "/api/v1/account/"),
                               ("PUT", "/api/v1/shares"), ("GET", "/api/v2/account"), ("GET", "/api/account"), ("GET", "/api/v1/follows/a/b/records")] {
            XCTAssertNil(try DeviceRoute(method: method, path: path, query: ["after": "0", "token": "0"]), "\(method) \(path)")
        }
    }
}
