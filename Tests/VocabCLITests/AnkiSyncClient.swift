import Foundation
import XCTest

/// Runs Anki's own sync client (Tests/Anki/sync_client.py, under the Python with PyPI `anki`)
/// through `steps` on the collection in `folder` (made if need be), against the Anki address of
/// the Vocab server at `server`, signed in as `user` (or with the key it kept there); returns
/// each step's JSON line (a refused step: `error` and `kind`).
func ankiClient(python: String, folder: String, server: String, user: String, password: String, steps: [String]) throws -> [[String: Any]] {
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Anki/sync_client.py").path
    let process = Process()
    process.executableURL = URL(fileURLWithPath: python)
    process.arguments = [script, "--endpoint", server + "/anki/", "--collection", folder + "/collection.anki2",
                         "--auth", folder + "/auth.json", "--user", user, "--password", password] + steps
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self).split(separator: "\n").compactMap {
        try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
    }
}

extension XCTestCase {
    /// Runs Anki's client `app` (a folder of its own under `folder`) through `steps`; unless
    /// `refusals` are expected, fails when a step is refused or does not run.
    @discardableResult
    func ankiApp(python: String, folder: String, server: String, user: String, password: String = "pw", steps: [String],
                 refusals: Bool = false) throws -> [[String: Any]] {
        let lines = try ankiClient(python: python, folder: folder, server: server, user: user, password: password, steps: steps)
        if !refusals {
            XCTAssertEqual(lines.count, steps.count, "every step ran: \(lines)")
            XCTAssertNil(lines.first { $0["error"] != nil }, "\(lines)")
        }
        return lines
    }
}
