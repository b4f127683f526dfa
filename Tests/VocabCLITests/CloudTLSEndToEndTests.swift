import Foundation
import TestServices
import XCTest

/// A Vocab server that asks for TLS to its cloud, and checks whom it talks to (issue 71: `--cloud`
/// refused `?sslmode=`, so no server could ask for TLS at all). The suite's PostgreSQL serves TLS
/// with a certificate of this run's CA (scripts/services.sh).
final class CloudTLSEndToEndTests: CloudEndToEndTestCase {
    func testAServerVerifiesTheCloudsCertificateAndRefusesAnImpostor() throws {
        let authority = try requiredService("VOCAB_TEST_PG_CA", "the suite's PostgreSQL certificate authority")
        let user = try newUser("tls")
        let verified = cloudURL() + "?sslmode=verify-full&sslrootcert=" + authority
        let server = try startServer("tls", tls: false, cloud: verified)
        try signIn("a", to: server, as: user)
        try on("a", ["book", "add", "Over TLS"]).expectSuccess()
        try syncs("a")
        let encrypted = try adminSQL("""
            SELECT count(*) FROM pg_stat_ssl s JOIN pg_stat_activity a USING (pid)
            WHERE a.usename = 'vocab_server' AND a.application_name = 'vocab' AND s.ssl
            """)
        XCTAssertGreaterThan(Int(encrypted) ?? 0, 0, "the server's connections to the cloud are encrypted")

        // Another CA than the one that signed the cloud's certificate: a man in the middle, as
        // the server sees him. It says so and does not start.
        let other = vocab.file("other-ca")
        try FileManager.default.createDirectory(atPath: other, withIntermediateDirectories: true)
        let made = Process()
        made.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        made.arguments = ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=Not the cloud's CA",
                          "-keyout", other + "/ca.key", "-out", other + "/ca.crt"]
        made.standardOutput = FileHandle.nullDevice
        made.standardError = FileHandle.nullDevice
        try made.run()
        made.waitUntilExit()
        let impostor = try vocab.run(["serve", "--cloud", cloudURL() + "?sslmode=verify-full&sslrootcert=" + other + "/ca.crt",
                                      "--listen", "127.0.0.1:0", "--cache", vocab.file("impostor-cache")],
                                     environment: ["PGPASSWORD": serverPassword])
        XCTAssertNotEqual(impostor.status, 0)
        XCTAssertTrue(impostor.stderr.contains("cannot use the cloud"), impostor.stderr)
        XCTAssertFalse(impostor.stderr.contains(serverPassword), "no password in what it says")

        // The learner was never disturbed: the verified server serves on.
        try on("a", ["word", "add", "still", "--book", "Over TLS"]).expectSuccess()
        try syncs("a")
    }
}
