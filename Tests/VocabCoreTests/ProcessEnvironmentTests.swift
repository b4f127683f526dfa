import XCTest
import VocabCore
#if canImport(Glibc)
import Glibc
#endif

final class ProcessEnvironmentTests: XCTestCase {
    func testTheEnvironmentIsReadWholeWithValuesThatHoldEqualsSigns() {
        setenv("VOCAB_TEST_ENVIRONMENT", "a=b=c", 1)
        defer { unsetenv("VOCAB_TEST_ENVIRONMENT") }
        let environment = ProcessEnvironment.current()
        XCTAssertEqual(environment["VOCAB_TEST_ENVIRONMENT"], "a=b=c")
        XCTAssertEqual(environment["PATH"], ProcessInfo.processInfo.environment["PATH"])
        XCTAssertEqual(environment.count, ProcessInfo.processInfo.environment.count)
    }
}
