import Foundation
import Synchronization
import XCTest

/// A real psql (Debian's postgresql-client) as a user: kept open reading what it is sent, or
/// run once for one statement.
final class PsqlSession: @unchecked Sendable {
    private let process = Process()
    private let input = Pipe()
    private let buffer = NSLock()
    private var text = ""

    init(url: String, password: String) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/psql")
        process.arguments = ["-X", "-q", url]
        process.environment = ProcessInfo.processInfo.environment.merging(["PGPASSWORD": password, "PGCONNECT_TIMEOUT": "5"]) { $1 }
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = output
        output.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            guard let self, !data.isEmpty else { return }
            self.buffer.lock()
            self.text += String(decoding: data, as: UTF8.self)
            self.buffer.unlock()
        }
        try process.run()
        send("\\echo backend-pid")
        send("SELECT pg_backend_pid();")
    }

    /// The server process of this session, once psql printed it.
    var backendPid: Int? {
        let lines = output.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        guard let marker = lines.firstIndex(of: "backend-pid") else { return nil }
        return lines[(marker + 1)...].lazy.compactMap { Int($0) }.first
    }

    func send(_ sql: String) {
        input.fileHandleForWriting.write(Data((sql + "\n").utf8))
    }

    var output: String {
        buffer.lock()
        defer { buffer.unlock() }
        return text
    }

    /// The server ended the session (psql exits when its connection is gone), or it never began.
    var ended: Bool { !process.isRunning || output.contains("terminat") || output.contains("connection to server") }

    func end() {
        try? input.fileHandleForWriting.close()
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }

    /// One statement in a psql of its own; everything it printed.
    static func once(url: String, password: String, _ sql: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/psql")
        process.arguments = ["-X", "-q", "-At", url]
        process.environment = ProcessInfo.processInfo.environment.merging(["PGPASSWORD": password, "PGCONNECT_TIMEOUT": "5"]) { $1 }
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = output
        try process.run()
        input.fileHandleForWriting.write(Data((sql + "\n").utf8))
        try input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}

extension RunResult {
    /// Checks that the command succeeded; its standard output (what a negative check then reads).
    @discardableResult
    func expectSuccess(file: StaticString = #filePath, line: UInt = #line) throws -> String {
        XCTAssertEqual(status, 0, stderr, file: file, line: line)
        return stdout
    }
}
