import XCTest
import VocabSync

/// The throw-away PostgreSQL that scripts/test.sh starts, as its administrator sees it, with
/// the Vocab schema installed. Without one (`swift test` on its own) the test is skipped.
struct TestPostgres {
    let admin: PostgresConnection
    /// The administrator's address and password, for opening more connections.
    let adminLogin: CloudLogin

    init() throws {
        let environment = ProcessInfo.processInfo.environment
        guard let url = environment["VOCAB_TEST_PG_ADMIN"], let password = environment["VOCAB_TEST_PG_PASSWORD"] else {
            throw XCTSkip("no PostgreSQL: run the suite with ./scripts/test.sh (it starts one)")
        }
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
