import Foundation
import XCTest

/// Serving beyond this machine: HTTPS with the learner's own certificate (checked with curl
/// against it), or behind a reverse proxy that terminates TLS; every other way is refused
/// before anything listens.
final class ServeTLSTests: ServeTestCase {
    private func makeCertificate() throws -> (String, String) { try makeTestCertificate(in: vocab) }

    private func curl(_ arguments: [String]) throws -> (status: String, headers: String) {
        let run = Process()
        run.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        run.arguments = ["-s", "-o", "/dev/null", "-D", "-", "-w", "%{http_code}"] + arguments
        let out = Pipe()
        run.standardOutput = out
        try run.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        run.waitUntilExit()
        return (String(text.suffix(3)), text)
    }

    func testHTTPSWithTheLearnersOwnCertificateAndASecureCookie() throws {
        let (certificate, key) = try makeCertificate()
        try startServer(options: ["--tls-cert", certificate, "--tls-key", key])
        XCTAssertTrue(lines.contains { $0.contains("https://127.0.0.1:\(port)/") }, "\(lines)")
        let base = "https://127.0.0.1:\(port)"
        XCTAssertEqual(try curl(["--cacert", certificate, base + "/"]).status, "200")
        XCTAssertNotEqual(try curl(["--cacert", certificate, "http://127.0.0.1:\(port)/"]).status, "200", "no plain HTTP on a TLS port")
        let paired = try curl(["--cacert", certificate, "-X", "POST", "-H", "X-Vocab-Request: 1", "-H", "Origin: \(base)",
                               "-d", #"{"code": "\#(try pairingCode())"}"#, base + "/api/pair"])
        XCTAssertEqual(paired.status, "204", paired.headers)
        XCTAssertTrue(paired.headers.contains("HttpOnly; SameSite=Strict; Secure"), paired.headers)
    }

    func testBehindAProxyTheCookieIsSecureAndOnlyTheHTTPSOriginMayWrite() throws {
        try startServer(options: ["--behind-proxy"])
        let plainOrigin = try send("POST", "/api/pair", body: #"{"code": "\#(try pairingCode())"}"#,
                                   headers: ["X-Vocab-Request": "1", "Origin": "http://127.0.0.1:\(port)"])
        XCTAssertEqual(plainOrigin.status, 403, "the page comes from https:// through the proxy")
        let paired = try send("POST", "/api/pair", body: #"{"code": "\#(try pairingCode())"}"#,
                              headers: ["X-Vocab-Request": "1", "Origin": "https://127.0.0.1:\(port)"])
        XCTAssertEqual(paired.status, 204, paired.body)
        XCTAssertTrue(paired.headers["set-cookie"]?.hasSuffix("; Secure") ?? false, "\(paired.headers)")
    }

    func testEveryUnsafeWayToServeIsRefusedBeforeListening() throws {
        let (certificate, key) = try makeCertificate()
        let open = try vocab.fails(["serve", "--listen", "0.0.0.0:0"], status: 1)
        XCTAssertTrue(open.contains("needs TLS"), open)
        let half = try vocab.fails(["serve", "--listen", "0.0.0.0:0", "--tls-cert", certificate], status: 1)
        XCTAssertTrue(half.contains("go together"), half)
        chmod(key, 0o644)
        let readable = try vocab.fails(["serve", "--tls-cert", certificate, "--tls-key", key], status: 1)
        XCTAssertTrue(readable.contains("can be read by other users"), readable)
        chmod(key, 0o600)
        let notPEM = try vocab.fails(["serve", "--tls-cert", key, "--tls-key", key], status: 1)
        XCTAssertTrue(notPEM.contains("not a certificate"), notPEM)
        let both = try vocab.fails(["serve", "--tls-cert", certificate, "--tls-key", key, "--behind-proxy"], status: 1)
        XCTAssertTrue(both.contains("not both"), both)
        let badURL = try vocab.fails(["serve", "--public-url", "vocab.example.org"], status: 2)
        XCTAssertTrue(badURL.contains("public-url"), badURL)
        // A server of many learners: its options go together, and a cloud that is no URL is refused.
        let cacheAlone = try vocab.fails(["serve", "--cache-size", "2GiB"], status: 1)
        XCTAssertTrue(cacheAlone.contains("go with --cloud"), cacheAlone)
        let notACloud = try vocab.fails(["serve", "--cloud", "db.example/vocab"], status: 1)
        XCTAssertTrue(notACloud.contains("not a PostgreSQL URL"), notACloud)
        let tinyCache = try vocab.fails(["serve", "--cloud", "postgresql://db.example/vocab", "--cache-size", "1KiB"], status: 2)
        XCTAssertTrue(tinyCache.contains("16MiB"), tinyCache)
    }
}
