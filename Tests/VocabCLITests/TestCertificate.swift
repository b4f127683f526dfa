import Foundation
import XCTest

/// A self-signed certificate for 127.0.0.1 made by openssl in `runner`'s folder (once):
/// (certificate, key), the key private to the user.
func makeTestCertificate(in runner: VocabRunner, file: StaticString = #filePath, line: UInt = #line) throws -> (String, String) {
    let certificate = runner.file("cert.pem"), key = runner.file("key.pem")
    if FileManager.default.fileExists(atPath: certificate) { return (certificate, key) }
    let openssl = Process()
    openssl.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
    openssl.arguments = ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
                         "-days", "1", "-keyout", key, "-out", certificate]
    openssl.standardOutput = FileHandle.nullDevice
    openssl.standardError = FileHandle.nullDevice
    try openssl.run()
    openssl.waitUntilExit()
    XCTAssertEqual(openssl.terminationStatus, 0, "openssl made the certificate", file: file, line: line)
    chmod(key, 0o600)
    return (certificate, key)
}

/// Whether `condition` holds within `seconds` (asked every 0.1 s, and once more at the end).
func waitUntil(_ seconds: Double, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if try condition() { return true }
        usleep(100_000)
    }
    return try condition()
}

/// Runs Debian's curl silently with `arguments`; returns what it printed.
func curl(_ arguments: [String]) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
    process.arguments = ["-s"] + arguments
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self)
}
