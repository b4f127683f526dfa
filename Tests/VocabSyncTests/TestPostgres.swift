import XCTest
import TestServices
import VocabSync

/// The throw-away PostgreSQL that scripts/test.sh starts, as its administrator sees it, with
/// the Vocab schema installed. Without one the test is skipped (`swift test` on its own) or,
/// under CI=true, fails.
struct TestPostgres {
    let admin: PostgresConnection
    /// The administrator's address and password, for opening more connections.
    let adminLogin: CloudLogin

    init() throws {
        let url = try requiredService("VOCAB_TEST_PG_ADMIN", "PostgreSQL")
        let password = try requiredService("VOCAB_TEST_PG_PASSWORD", "PostgreSQL administrator's password")
        let address = try ServerAddress(url: url)
        admin = try PostgresConnection(address, password: password)
        adminLogin = CloudLogin(address: address, password: password)
        try CloudSchema.install(on: admin)
    }

    /// Creates the Vocab user `name` (or gives it a new password) and returns its login.
    func addUser(_ name: String, password: String) throws -> CloudLogin {
        try CloudSchema.addUser(name, password: password, on: admin)
        var address = adminLogin.address
        address.user = name
        return CloudLogin(address: address, password: password)
    }
}
