import XCTest
import TestServices
import VocabCloud
import VocabSync
import VocabCloudAPI

/// The throw-away PostgreSQL that scripts/test.sh starts, as its administrator sees it, with
/// the Vocab schema installed, and as a Vocab server reaches it (the role `vocab_server`, its
/// password in VOCAB_TEST_SERVER_PASSWORD). Without one the test is skipped (`swift test` on its
/// own) or, under CI=true, fails.
struct TestPostgres: @unchecked Sendable {
    let admin: PostgresConnection
    /// The administrator's address and password, for opening more connections.
    let adminLogin: CloudLogin
    let serverPassword: String

    init() throws {
        let url = try requiredService("VOCAB_TEST_PG_ADMIN", "PostgreSQL")
        let password = try requiredService("VOCAB_TEST_PG_PASSWORD", "PostgreSQL administrator's password")
        serverPassword = try requiredService("VOCAB_TEST_SERVER_PASSWORD", "the Vocab server role's password")
        let address = try ServerAddress(url: url)
        admin = try PostgresConnection(address, password: password)
        adminLogin = CloudLogin(address: address, password: password)
        try CloudSchema.install(on: admin)
    }

    /// A new connection as the server tier (what a Vocab server holds).
    func tier(timeouts: CloudTimeouts = CloudTimeouts()) throws -> PostgresConnection {
        var address = adminLogin.address
        address.user = CloudSchema.serverRole
        return try PostgresConnection(address, password: serverPassword, timeouts: timeouts)
    }

    /// Creates the learner `name` (or gives it a new password) with a device signed in.
    func addUser(_ name: String, password: String) throws -> TestLearner {
        try CloudSchema.addUser(name, password: password, on: admin)
        var address = adminLogin.address
        address.user = name
        return TestLearner(name: name, password: password, address: address, device: try newDevice(of: name, password: password))
    }

    /// Another device of `name`, signed in with the password as a Vocab server does it.
    func newDevice(of name: String, password: String) throws -> DeviceKey {
        guard let key = try CloudDevices.signIn(user: name, password: password, label: "test", on: try tier()) else {
            throw CloudError.accessDenied(server: adminLogin.address.server, detail: "the password was refused")
        }
        return key
    }
}

/// A learner of the test cloud and one device of theirs.
struct TestLearner: Sendable {
    let name: String
    let password: String
    /// The account (what a store is bound to).
    let address: ServerAddress
    let device: DeviceKey
}
