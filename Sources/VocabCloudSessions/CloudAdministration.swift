import VocabCloud
import VocabCloudAPI
import VocabCore

/// The administrator's operations on the cloud (the terminal's `cloud` commands), each over a
/// connection of an administrator's role: the same rules every Vocab server holds the cloud to,
/// in one place.
package struct CloudAdministration {
    private let connection: PostgresConnection

    /// The role Vocab servers connect as, and what a new account may hold.
    package static var serverRole: String { CloudSchema.serverRole }
    package static var defaultMaxRecords: Int { CloudSchema.defaultMaxRecords }
    package static var defaultMaxBytes: Int { CloudSchema.defaultMaxBytes }

    /// Connects as the administrator `address` names (password from libpq's own: PGPASSWORD,
    /// ~/.pgpass).
    package init(address: ServerAddress) throws {
        connection = try PostgresConnection(address, password: nil)
    }

    /// The cloud's host and database, as the administrator is told them.
    package var place: String { "\(connection.address.server)/\(connection.address.database)" }

    /// Installs or upgrades the schema (`CloudSchema.install`).
    package func install() throws -> SchemaInstall { try CloudSchema.install(on: connection) }

    /// Whether the Vocab servers' role has a password to connect with.
    package func serverCanLogIn() throws -> Bool { try CloudSchema.serverCanLogIn(on: connection) }

    package func setServerPassword(_ password: String) throws { try CloudSchema.setServerPassword(password, on: connection) }

    /// Creates a learner, or sets a learner's new password (his devices stay signed in).
    package func addUser(_ name: String, password: String) throws { try CloudSchema.addUser(name, password: password, on: connection) }

    /// Caps what `name` may hold (nil lifts a cap; `bytes` `.none` leaves it as it is).
    package func setLimit(_ name: String, records: Int?, bytes: Int?? = .none) throws {
        try CloudSchema.setLimit(name, records: records, bytes: bytes, on: connection)
    }

    /// Signs out every device of `name`; returns how many.
    package func signOutAll(of name: String) throws -> Int { try CloudDevices.signOutAll(of: name, admin: connection) }
}
