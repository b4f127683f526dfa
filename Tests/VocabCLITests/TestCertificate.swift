import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

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

/// A loopback port nothing listens on now, chosen by the kernel (a random one may be a server's
/// of this run: each listens on a port the kernel chose from the same range).
func freePort() throws -> Int {
    let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(socket) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0 }
    }
    guard bound else { throw CocoaError(.fileWriteUnknown) }
    return Int(UInt16(bigEndian: address.sin_port))
}
