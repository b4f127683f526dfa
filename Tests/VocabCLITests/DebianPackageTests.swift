import Foundation
import TestServices
import XCTest

/// The operator's install (issue 71): the `.deb` scripts/package-deb.sh builds (scripts/test.sh
/// builds it for the suite) passes lintian with no error or warning left unexplained, installs
/// into a throw-away root with `dpkg --root`, and there its `vocab --version` answers and
/// `systemd-analyze verify` passes its unit — which runs as a user of its own, hardened, reading
/// its settings from a file only root reads.
final class DebianPackageTests: XCTestCase {
    private var root = ""

    override func setUpWithError() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("deb-root-\(UUID().uuidString)").path
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: root)
        super.tearDown()
    }

    /// Runs `arguments`; its status and what it printed (both streams).
    @discardableResult
    private func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    func testThePackageLintsInstallsIntoAFreshRootAndItsUnitVerifies() throws {
        let package = try requiredService("VOCAB_TEST_DEB", "the Debian package scripts/package-deb.sh builds")
        let lint = try run(["lintian", "--fail-on", "error,warning", package])
        XCTAssertEqual(lint.status, 0, lint.output)

        let depends = try run(["dpkg-deb", "-f", package, "Depends"]).output
        for library in ["libc6", "libsqlite3-0", "libpq5", "libmicrohttpd12", "libsodium23", "libcurl4"] {
            XCTAssertTrue(depends.contains(library), "Depends names \(library): \(depends)")
        }
        XCTAssertFalse(depends.contains("swift"), "the Swift runtime is linked in: \(depends)")

        // A throw-away root: an empty dpkg database and systemd's own targets, nothing else.
        let units = root + "/usr/lib/systemd/system"
        try FileManager.default.createDirectory(atPath: root + "/var/lib/dpkg/info", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: root + "/var/lib/dpkg/updates", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: units, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: root + "/lib", withDestinationPath: "usr/lib")
        for file in ["status", "available"] { FileManager.default.createFile(atPath: root + "/var/lib/dpkg/" + file, contents: nil) }
        for name in try FileManager.default.contentsOfDirectory(atPath: "/usr/lib/systemd/system")
        where name.hasSuffix(".target") || name.hasSuffix(".slice") {
            try? FileManager.default.copyItem(atPath: "/usr/lib/systemd/system/" + name, toPath: units + "/" + name)
        }
        // --force-depends: the root holds no libraries; the binary runs on this machine's.
        let installed = try run(["dpkg", "--root=" + root, "--force-depends", "-i", package])
        XCTAssertEqual(installed.status, 0, installed.output)
        XCTAssertTrue(try run([root + "/usr/bin/vocab", "--version"]).output.hasPrefix("vocab "), "vocab --version")
        let verified = try run(["systemd-analyze", "--root=" + root, "--man=no", "verify", "vocab-server.service"])
        XCTAssertEqual(verified.status, 0, verified.output)

        let unit = try String(contentsOfFile: units + "/vocab-server.service", encoding: .utf8)
        for line in ["DynamicUser=yes", "User=vocab", "NoNewPrivileges=yes", "ProtectSystem=strict", "ProtectHome=yes", "PrivateTmp=yes",
                     "EnvironmentFile=/etc/vocab/server.env", "ExecStart=/usr/bin/vocab serve $VOCAB_SERVE_ARGS", "CapabilityBoundingSet="] {
            XCTAssertTrue(unit.contains(line + "\n"), "the unit has \(line)")
        }
        let settings = try FileManager.default.attributesOfItem(atPath: root + "/etc/vocab/server.env")
        XCTAssertEqual((settings[.posixPermissions] as? NSNumber)?.intValue, 0o600, "the settings hold a password: root's only")
        XCTAssertTrue(try run(["dpkg-deb", "-f", package, "Package"]).output.hasPrefix("vocab"))
        XCTAssertTrue(try run(["dpkg", "--root=" + root, "-L", "vocab"]).output.contains("/usr/share/man/man1/vocab-serve.1.gz"), "man pages")
    }
}
