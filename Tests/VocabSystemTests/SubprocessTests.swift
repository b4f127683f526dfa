import Foundation
import VocabSystem
import XCTest

/// Child processes run by posix_spawn (what replaced Foundation's Process).
final class SubprocessTests: XCTestCase {
    func testAChildProcessRunsWithItsOutputsKeptOrFiled() throws {
        let echo = try Subprocess("/bin/sh", ["-c", "printf out; printf err >&2; exit 3"]).run(output: .capture, errors: .capture)
        XCTAssertEqual(String(decoding: echo.output, as: UTF8.self), "out")
        XCTAssertEqual(String(decoding: echo.errors, as: UTF8.self), "err")
        XCTAssertEqual(echo.exitStatus, 3)
        XCTAssertFalse(echo.succeeded)
        let file = NSTemporaryDirectory() + "/subprocess-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: file) }
        // Far more than a pipe holds, on both outputs: nothing waits forever.
        let big = try Subprocess("/bin/sh", ["-c", "head -c 300000 /dev/zero; head -c 300000 /dev/zero >&2"]).run(output: .capture, errors: .capture)
        XCTAssertEqual(big.output.count, 300_000)
        XCTAssertEqual(big.errors.count, 300_000)
        XCTAssertTrue(try Subprocess("/bin/sh", ["-c", "printf filed"]).run(output: .file(file)).succeeded)
        XCTAssertEqual(try String(contentsOfFile: file, encoding: .utf8), "filed")
        XCTAssertThrowsError(try Subprocess("/no/such/program", []).run())
    }
}
