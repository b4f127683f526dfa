import Foundation

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
