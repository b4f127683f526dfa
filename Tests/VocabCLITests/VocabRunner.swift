import Foundation
import XCTest

/// The base of the end-to-end test classes: each test gets a fresh `VocabRunner` (its own
/// temporary VOCAB_HOME), removed after the test.
class EndToEndTestCase: XCTestCase {
    var vocab: VocabRunner!

    override func setUpWithError() throws {
        try super.setUpWithError()
        vocab = try VocabRunner()
        addTeardownBlock { [weak self] in self?.vocab = nil }
    }
}

/// What one run of the `vocab` binary did.
struct RunResult {
    let status: Int32
    let stdout: String
    let stderr: String
}

/// Runs the built `vocab` binary as a separate process against its own temporary VOCAB_HOME.
final class VocabRunner {
    let root: String
    var home: String { root + "/home" }

    init() throws {
        root = NSTemporaryDirectory() + "vocab-e2e-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: root) }

    static var binary: String {
        if let path = ProcessInfo.processInfo.environment["VOCAB_TEST_BINARY"], !path.isEmpty { return path }
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return packageRoot.appendingPathComponent(".build/debug/vocab").path
    }

    /// The package's folder (its docs and scripts, which some tests run as shipped).
    static var repository: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    }

    func file(_ name: String) -> String { root + "/" + name }

    /// Runs `vocab arguments...` with `input` on standard input (empty when nil); `binary`: another
    /// Vocab than the one built (an older one, say).
    @discardableResult
    func run(_ arguments: [String], input: String = "", environment extra: [String: String] = [:],
             directory: String? = nil, binary: String = VocabRunner.binary,
             file: StaticString = #filePath, line: UInt = #line) throws -> RunResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["VOCAB_HOME"] = home
        environment["NO_COLOR"] = "1"
        for (key, value) in extra { environment[key] = value }
        process.environment = environment

        let id = UUID().uuidString
        let inPath = root + "/stdin-" + id, outPath = root + "/stdout-" + id, errPath = root + "/stderr-" + id
        try Data(input.utf8).write(to: URL(fileURLWithPath: inPath))
        _ = FileManager.default.createFile(atPath: outPath, contents: nil)  // opening it below reports a failure
        _ = FileManager.default.createFile(atPath: errPath, contents: nil)
        let stdin = try FileHandle(forReadingFrom: URL(fileURLWithPath: inPath))
        let stdout = try FileHandle(forWritingTo: URL(fileURLWithPath: outPath))
        let stderr = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        process.waitUntilExit()
        try stdin.close(); try stdout.close(); try stderr.close()
        let result = RunResult(status: process.terminationStatus,
                               stdout: try String(contentsOfFile: outPath, encoding: .utf8),
                               stderr: try String(contentsOfFile: errPath, encoding: .utf8))
        for path in [inPath, outPath, errPath] { try? FileManager.default.removeItem(atPath: path) }
        return result
    }

    /// Waits until no detached upkeep (`vocab maintain --auto`, which a changing command starts
    /// before it exits when a backup or indexing is due) runs on this runner's store: what it
    /// would write is then written. True when none is left within `seconds`.
    @discardableResult
    func waitForBackgroundUpkeep(seconds: Double = 30) -> Bool {
        waitUntil(seconds) { !Self.upkeepRunning(home: home) }
    }

    /// Whether a `vocab … maintain` process with VOCAB_HOME `home` runs (read from /proc).
    static func upkeepRunning(home: String) -> Bool {
        let processes = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return processes.contains { pid in
            guard pid.allSatisfy(\.isNumber),
                  let command = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline"),
                  command.split(separator: 0).contains(where: { String(decoding: $0, as: UTF8.self) == "maintain" }),
                  let environment = FileManager.default.contents(atPath: "/proc/\(pid)/environ") else { return false }
            return environment.split(separator: 0).contains { String(decoding: $0, as: UTF8.self) == "VOCAB_HOME=" + home }
        }
    }

    /// Runs a command that must succeed; returns its standard output.
    @discardableResult
    func ok(_ arguments: [String], input: String = "", file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let result = try run(arguments, input: input)
        XCTAssertEqual(result.status, 0, "vocab \(arguments.joined(separator: " ")) failed: \(result.stderr)", file: file, line: line)
        XCTAssertEqual(result.stderr, "", file: file, line: line)
        return result.stdout
    }

    /// Runs a command that must fail with `status`, one line on stderr and nothing on stdout.
    @discardableResult
    func fails(_ arguments: [String], status: Int32, input: String = "", file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let result = try run(arguments, input: input)
        XCTAssertEqual(result.status, status, "vocab \(arguments.joined(separator: " ")): \(result.stderr)", file: file, line: line)
        XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, "one clear line: \(result.stderr)", file: file, line: line)
        XCTAssertTrue(result.stderr.hasPrefix("vocab: "), result.stderr, file: file, line: line)
        return result.stderr
    }

    /// The JSON that a command printed.
    func json(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) throws -> Any {
        let output = try ok(arguments, file: file, line: line)
        return try JSONSerialization.jsonObject(with: Data(output.utf8))
    }

    /// A fingerprint of the store file, to prove a failed command changed nothing.
    func storeSnapshot() throws -> String {
        try ok(["word", "list", "--json"]) + (try ok(["book", "list", "--json"]))
    }
}
