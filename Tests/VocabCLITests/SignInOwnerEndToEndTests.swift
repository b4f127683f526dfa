import Foundation
import XCTest

/// Sign-in that stops strangers and never the owner, made as issue 68 found it against
/// `vocab serve --cloud`: alice at 127.0.0.1 (where she signed in before), strangers each on an
/// address of their own in 127.0.0.0/8 (loopback: the server tells them apart).
final class SignInOwnerEndToEndTests: CloudEndToEndTestCase {
    /// A page sign-in from `address` (with the cookies in `jar`, kept there); its status and body.
    private func pageSignIn(_ server: String, user: String, password: String, from address: String, jar: String? = nil) throws -> (status: String, body: String) {
        var arguments = ["-w", "\n%{http_code}", "--interface", address, "-H", "X-Vocab-Request: 1",
                         "-d", #"{"user":"\#(user)","password":"\#(password)"}"#]
        if let jar { arguments += ["-b", jar, "-c", jar] }
        let answer = try curl(arguments + [server + "/api/signin"])
        let status = String(answer.suffix(3))
        return (status, String(answer.dropLast(4)))
    }

    /// Alice mistypes once from her address; strangers then send one wrong password each from
    /// 26 addresses (once this locked her right password out for an hour). Her right password
    /// gets in from her address and from the browser she signed in with before, wherever it
    /// is now; past the strangers' ceiling every stranger waits, also one from an address that
    /// never failed (guessing from fresh addresses stops); bob's account is untouched.
    func testOneTypoAndStrangersGuessingNeverLockTheOwnerOut() throws {
        let alice = try newUser(), bob = try newUser()
        let server = try startServer("owner", tls: false)
        try signIn("alice", to: server, as: alice)  // from 127.0.0.1: her place from now
        try on("alice", ["book", "add", "Hers"]).expectSuccess()
        let jar = vocab.file("alice-browser.cookies")
        XCTAssertEqual(try pageSignIn(server, user: alice, password: "pw", from: "127.0.3.1", jar: jar).status, "200", "her browser, marked")

        XCTAssertEqual(try pageSignIn(server, user: alice, password: "typo", from: "127.0.0.1").status, "403", "her typo")
        var strangers: [String] = []
        for n in 1...26 {
            strangers.append(try pageSignIn(server, user: alice, password: "guess\(n)", from: "127.0.1.\(n)").status)
        }
        XCTAssertEqual(strangers.filter { $0 == "403" }.count, 20, "twenty strangers' guesses checked: \(strangers)")
        XCTAssertEqual(strangers.filter { $0 == "429" }.count, 6, "the rest held: \(strangers)")
        let fresh = try pageSignIn(server, user: alice, password: "guess", from: "127.0.2.1")
        XCTAssertEqual(fresh.status, "429", "a stranger from a fresh address waits too: \(fresh.body)")

        // The owner: her right password from her address, by the terminal and by a page.
        let login = try vocab.run(["login", server.replacingOccurrences(of: "://", with: "://\(alice)@"), "--device-name", "again"],
                                  environment: device("alice2").merging(["VOCAB_PASSWORD": "pw"]) { $1 })
        XCTAssertEqual(login.status, 0, login.stderr)
        XCTAssertEqual(try pageSignIn(server, user: alice, password: "pw", from: "127.0.0.1").status, "200")
        // Her browser, now on another network, by its mark; the same address without it waits.
        XCTAssertEqual(try pageSignIn(server, user: alice, password: "pw", from: "127.0.3.9", jar: jar).status, "200", "her marked browser")
        XCTAssertEqual(try pageSignIn(server, user: alice, password: "pw", from: "127.0.3.2").status, "429", "no mark, a stranger's place")
        // The innocent: another account, from a stranger's address too.
        XCTAssertEqual(try pageSignIn(server, user: bob, password: "pw", from: "127.0.2.2").status, "200", "bob is not held")
        try on("alice", ["word", "add", "still", "--book", "Hers"]).expectSuccess()
        try syncs("alice")
    }

    /// An account with its 10 devices signed in: from where its owner has been, a sign-in is
    /// refused at once in Vocab's words (a wrong password too, so no password was checked for a
    /// device that would be refused: a check would have said "wrong"); from a stranger's
    /// address the password is checked first (nothing told that a guesser could use).
    func testAnAccountWithNoRoomForADeviceIsToldSoWithoutAPasswordCheck() throws {
        let bob = try newUser(), alice = try newUser()
        let server = try startServer("room", tls: false)
        for n in 0..<10 { try signIn("bob\(n)", to: server, as: bob) }
        let full = try pageSignIn(server, user: bob, password: "pw", from: "127.0.0.1")
        XCTAssertEqual(full.status, "429", full.body)
        XCTAssertTrue(full.body.contains("10 devices signed in"), full.body)
        for word in ["ERROR", "sign_in", "vocab.", "53400"] { XCTAssertFalse(full.body.contains(word), "no word of PostgreSQL's: \(full.body)") }
        let wrong = try pageSignIn(server, user: bob, password: "wrong", from: "127.0.0.1")
        XCTAssertEqual(wrong.status, "429", "no password checked: \(wrong.body)")
        let stranger = try pageSignIn(server, user: bob, password: "wrong", from: "127.0.4.1")
        XCTAssertEqual(stranger.status, "403", "a stranger's guess is checked as any: \(stranger.body)")
        let login = try vocab.run(["login", server.replacingOccurrences(of: "://", with: "://\(bob)@"), "--device-name", "eleventh"],
                                  environment: device("bob10").merging(["VOCAB_PASSWORD": "pw"]) { $1 })
        XCTAssertNotEqual(login.status, 0)
        XCTAssertTrue(login.stderr.contains("10 devices signed in"), login.stderr)
        XCTAssertFalse(login.stderr.contains("ERROR"), login.stderr)
        // The device words the account's limit itself, from its values (issue 69): not "cannot reach".
        XCTAssertTrue(login.stderr.contains("The cloud cannot sign in another device now"), login.stderr)
        XCTAssertFalse(login.stderr.contains("reach"), login.stderr)
        try signIn("alice", to: server, as: alice)
        try on("alice", ["book", "add", "Hers"]).expectSuccess()
        try syncs("alice")
    }

    /// Wrong secrets with alice's device id from a stranger's address (once five of them held
    /// her device back for up to 15 minutes, the lock doubling): her device, from her address,
    /// is let in at once by a server that had never seen it.
    func testAStrangerWhoKnowsADevicesIdCannotHoldItBack() throws {
        let alice = try newUser()
        let first = try startServer("first", tls: false), second = try startServer("second", tls: false)
        try signIn("alice", to: first, as: alice)
        let real = try bearer("alice")
        let id = try XCTUnwrap(real.split(separator: " ").last?.split(separator: ".").first)
        var strangers: [String] = []
        for n in 0..<12 {
            strangers.append(try curl(["-o", "/dev/null", "-w", "%{http_code}", "--interface", "127.0.5.1",
                                       "-H", "Authorization: Bearer \(id).\(String(repeating: "0", count: 63))\(n % 10)", second + "/api/v1/account"]))
        }
        XCTAssertTrue(strangers.allSatisfy { ["401", "429"].contains($0) }, "\(strangers)")
        XCTAssertTrue(strangers.contains("429"), "the stranger is held back: \(strangers)")
        XCTAssertEqual(try curl(["-o", "/dev/null", "-w", "%{http_code}", "-H", real, second + "/api/v1/account"]), "200", "her device is not")
    }
}
