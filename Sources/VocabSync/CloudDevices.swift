import FoundationEssentials
import Glibc
import VocabCore

/// A device signed in to a learner's account.
public struct CloudDevice: Sendable, Equatable {
    /// Its role on the server: what signs it out.
    public var id: String
    public var label: String
    /// When it signed in, and when it was last seen syncing (Unix seconds).
    public var created: Int64
    public var seen: Int64?
    /// The device asking.
    public var isThis: Bool
}

/// Devices of a learner's account (cloud schema 5): each signs in once with the learner's
/// password (PostgreSQL checks it) and gets a role of its own with a random secret that only
/// the device keeps — the server keeps its SCRAM verifier. Any device, or an administrator,
/// can sign devices out: their roles can no longer log in and their sessions end.
public enum CloudDevices {
    /// Adds a device for the learner `connection` is signed in as (with the password) and
    /// returns the device's login. The secret is made here and hashed here; it never travels.
    public static func add(label: String, on connection: PostgresConnection) throws -> CloudLogin {
        let secret = Secrets.randomHex(bytes: 32)  // 256 bits: the device's secret
        let verifier = try connection.scramVerifier(of: secret)
        guard let role = try connection.execute("SELECT vocab.add_device($1, $2)::text", [label, verifier]).first?.first ?? nil else {
            throw CloudError.serverError("the server made no device")
        }
        var address = connection.address
        address.user = role
        return CloudLogin(address: address, password: secret, account: connection.address.user)
    }

    /// The account's devices signed in, oldest first.
    public static func list(on connection: PostgresConnection) throws -> [CloudDevice] {
        try connection.execute("""
            SELECT role::text, label, extract(epoch FROM created)::bigint::text, extract(epoch FROM seen)::bigint::text, this
            FROM vocab.my_devices()
            """).compactMap { row in
            guard row.count == 5, let id = row[0], let created = row[2].flatMap({ Int64($0) }) else { return nil }
            return CloudDevice(id: id, label: row[1] ?? "", created: created, seen: row[3].flatMap { Int64($0) }, isThis: row[4] == "t")
        }
    }

    /// Signs out one device of the account (`id`), or every one of them when nil (the one
    /// asking too). Returns how many were signed out.
    @discardableResult
    public static func signOut(_ id: String?, on connection: PostgresConnection) throws -> Int {
        let count = try connection.execute("SELECT vocab.sign_out($1)::text", [id]).first?.first ?? nil
        return count.flatMap { Int($0) } ?? 0
    }

    /// An administrator signs out every device of `user` (the password still signs in).
    @discardableResult
    public static func signOutAll(of user: String, admin: PostgresConnection) throws -> Int {
        guard try !admin.execute("SELECT 1 FROM pg_roles WHERE rolname = $1", [user]).isEmpty else {
            throw CloudError.serverError("there is no user \(user)")
        }
        let count = try admin.execute("SELECT vocab.sign_out_devices($1, NULL)::text", [user]).first?.first ?? nil
        return count.flatMap { Int($0) } ?? 0
    }

    /// What a device is called when it signs in: this machine's name and the front end.
    public static func label(for frontEnd: String) -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        let host = gethostname(&buffer, buffer.count) == 0 ? String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : "this computer"
        return "\(frontEnd) on \(host)"
    }
}
