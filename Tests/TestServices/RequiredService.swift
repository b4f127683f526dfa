import Foundation
import XCTest

/// A service the test suite starts (scripts/test.sh exports where it listens): its address, or
/// — when it is missing — a skip on a developer's plain `swift test`, but a failure under
/// `CI=true`, so that CI never passes green with the tests of a service it could not start.
public func requiredService(_ variable: String, _ what: String) throws -> String {
    let environment = ProcessInfo.processInfo.environment
    if let value = environment[variable], !value.isEmpty { return value }
    let reason = "no \(what) ($\(variable) is not set): run the suite with ./scripts/test.sh (it starts one)"
    if environment["CI"] == "true" { throw MissingService(reason: reason) }
    throw XCTSkip(reason)
}

/// A service CI needs and does not have: the test fails with the reason.
public struct MissingService: Error, CustomStringConvertible {
    public let reason: String
    public var description: String { "CI=true and " + reason }
}
