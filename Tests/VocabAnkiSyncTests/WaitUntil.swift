import Foundation
import XCTest

extension XCTestCase {
    /// Waits (up to 15 s) until `condition` holds, for what a server does on a queue of its own.
    func waitUntil(_ what: String, _ condition: @escaping () -> Bool) throws {
        for _ in 0..<300 {
            if condition() { return }
            usleep(50_000)
        }
        XCTFail("never came: \(what)")
    }
}
