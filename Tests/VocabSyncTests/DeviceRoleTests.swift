import Foundation
import XCTest
import VocabCore
import VocabStore
@testable import VocabSync

/// A device's role (cloud schema 5) against the real PostgreSQL: what it may do, and nothing
/// of anyone else's.
final class DeviceRoleTests: XCTestCase {
    private var server: TestPostgres!

    override func setUpWithError() throws {
        server = try TestPostgres()
    }

    private func learner(_ prefix: String) throws -> CloudLogin {
        try server.addUser(prefix + "_" + UUID().uuidString.prefix(8).lowercased(), password: "pw")
    }

    private func connect(_ login: CloudLogin) throws -> PostgresConnection {
        try PostgresConnection(login.address, password: login.password)
    }

    func testOnlyTheVerifierIsKeptAndTheDeviceActsForItsLearnerAlone() throws {
        let alice = try learner("alice"), bob = try learner("bob")
        let aliceDevice = try CloudDevices.add(label: "phone", on: try connect(alice))
        let bobDevice = try CloudDevices.add(label: "phone", on: try connect(bob))
        XCTAssertEqual(aliceDevice.account, alice.address.user)
        let secret = try XCTUnwrap(aliceDevice.password)
        XCTAssertEqual(secret.count, 64)
        let stored = try server.admin.execute("SELECT rolpassword FROM pg_authid WHERE rolname = $1", [aliceDevice.address.user]).first?.first ?? nil
        XCTAssertTrue(stored?.hasPrefix("SCRAM-SHA-256$") ?? false, "a verifier, never the secret")
        XCTAssertFalse(stored?.contains(secret) ?? true)

        // Alice's device syncs into alice's account, bound to alice (not to the device).
        let store = try Store(path: ":memory:")
        try store.addBook(BookDraft(name: "Phone"))
        let device = try connect(aliceDevice)
        _ = try SyncEngine(store: store, connection: device, account: aliceDevice.accountAddress).run()
        XCTAssertEqual(try store.boundAccount(), alice.address.url)
        let owners = try server.admin.execute("SELECT DISTINCT owner::text FROM vocab.records WHERE owner IN ($1, $2)",
                                              [alice.address.user, aliceDevice.address.user])
        XCTAssertEqual(owners, [[alice.address.user]])

        // What a device may not do: add devices, read the devices table, sign out another learner's device.
        XCTAssertThrowsError(try CloudDevices.add(label: "more", on: device), "a device cannot add devices")
        XCTAssertThrowsError(try device.execute("SELECT * FROM vocab.devices"))
        XCTAssertThrowsError(try device.execute("SELECT vocab.sign_out_devices($1, NULL)", [bob.address.user]))
        XCTAssertEqual(try CloudDevices.signOut(bobDevice.address.user, on: device), 0, "bob's device is not alice's to sign out")
        XCTAssertEqual(try CloudDevices.list(on: device).map(\.label), ["phone"], "alice's devices only")
        XCTAssertNoThrow(try connect(bobDevice).execute("SELECT 1"), "bob's device still signs in")
        // A learner may not pass a plain password as a verifier (it would be hashed with a secret the server saw).
        XCTAssertThrowsError(try connect(alice).execute("SELECT vocab.add_device('x', 'plain-text-secret')"))
    }

    func testASignedOutDeviceCannotConnectAndItsOpenSessionEnds() throws {
        let alice = try learner("alice")
        let phone = try CloudDevices.add(label: "phone", on: try connect(alice))
        let laptop = try CloudDevices.add(label: "laptop", on: try connect(alice))
        let open = try connect(phone)
        XCTAssertEqual(try CloudDevices.signOut(phone.address.user, on: try connect(laptop)), 1)
        XCTAssertThrowsError(try open.execute("SELECT * FROM vocab.counts()"), "its session was ended")
        XCTAssertThrowsError(try connect(phone)) { error in
            guard case CloudError.accessDenied = error else { return XCTFail("\(error)") }
        }
        XCTAssertEqual(AccountStatus.check(phone), .accessDenied(.deviceSignedOut(server: phone.address.server)))
        // The administrator signs out the rest; the learner's password still signs a new device in.
        XCTAssertEqual(try CloudDevices.signOutAll(of: alice.address.user, admin: server.admin), 1)
        XCTAssertThrowsError(try connect(laptop))
        let again = try CloudDevices.add(label: "phone again", on: try connect(alice))
        XCTAssertEqual(AccountStatus.check(again), .available(alice.address))
    }
}
