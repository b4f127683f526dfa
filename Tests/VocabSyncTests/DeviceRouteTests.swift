@testable import VocabSync
@testable import VocabCloudAPI
import XCTest

/// The device API's one route table: every route is matched back from its own method and path,
/// ids in their places; nothing else is.
final class DeviceRouteTests: XCTestCase {
    /// Each route with an id where it takes one. The switch names every route: a new one does
    /// not compile here until it is given, and then must be in `DeviceRoute.all`.
    private func example(_ route: DeviceRoute) -> DeviceRoute {
        switch route {
        case .signIn, .health, .account, .pull, .push, .devices, .signOut, .share, .shares, .follow, .follows, .followChanges, .catalog:
            return route
        case .signOutDevice: return .signOutDevice("dev_1a2b")
        case .unshare: return .unshare("0b0e3c5a-3c2e-4f7a-9d1e-5a6b7c8d9e0f")
        case .unfollow: return .unfollow("1c1e3c5a-3c2e-4f7a-9d1e-5a6b7c8d9e0f")
        case .followedRecords: return .followedRecords("2d2e3c5a-3c2e-4f7a-9d1e-5a6b7c8d9e0f")
        }
    }

    func testEveryRouteIsFoundFromItsOwnMethodAndPath() {
        XCTAssertEqual(DeviceRoute.all.count, 17)
        for route in DeviceRoute.all.map(example) {
            XCTAssertEqual(DeviceRoute(method: route.method, path: route.path()), route, route.path())
        }
        let paths = DeviceRoute.all.map { "\($0.method) \($0.path())" }
        XCTAssertEqual(Set(paths).count, paths.count, "no two routes alike")
    }

    func testPathsAreSpelledAsTheServerAlwaysAnsweredThem() {
        XCTAssertEqual(DeviceRoute.push.path(query: "token=3&fresh=0&merge=1"), "/api/v1/sync/push?token=3&fresh=0&merge=1")
        XCTAssertEqual(DeviceRoute(method: "GET", path: "/api/v1/follows/abc/records"), .followedRecords("abc"))
        XCTAssertEqual(DeviceRoute(method: "POST", path: "/api/v1/follows/changes"), .followChanges)
        XCTAssertEqual(DeviceRoute(method: "DELETE", path: "/api/v1/devices/dev_9"), .signOutDevice("dev_9"))
    }

    func testAnythingElseIsNoRoute() {
        for (method, path) in [("GET", "/api/v1/"), ("GET", "/api/v1/sync"), ("POST", "/api/v1/sync/pull"), ("DELETE", "/api/v1/devices/"),
                               ("DELETE", "/api/v1/devices"), ("GET", "/api/v1/follows//records"), ("GET", "/api/v1/account/"),
                               ("PUT", "/api/v1/shares"), ("GET", "/api/v2/account"), ("GET", "/api/account"), ("GET", "/api/v1/follows/a/b/records")] {
            XCTAssertNil(DeviceRoute(method: method, path: path), "\(method) \(path)")
        }
    }
}
