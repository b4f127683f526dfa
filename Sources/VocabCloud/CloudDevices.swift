import FoundationEssentials
import VocabCore
import VocabCloudAPI

/// Devices of a learner's account, as a Vocab server handles them on its own connection to the
/// cloud (the role `vocab_server`): the server checks the learner's password against the kept
/// verifier and makes the device's secret; the cloud keeps the secret's SHA-256 and checks it
/// in every function a device's request runs. An administrator can sign devices out too.
public enum CloudDevices {
    /// Checks `password` against what the cloud keeps of `user`'s (re-hashing an older kind
    /// after it passed) and adds a device; nil when the user or the password is wrong.
    public static func signIn(user: String, password: String, label: String, on connection: PostgresConnection) throws -> DeviceKey? {
        try signIn(user: user, password: password, label: label) { step in try step(connection) }
    }

    /// The same, with a connection lent by `lending` for each step: none is held while the
    /// password is checked (Argon2id takes a core's time and 64 MiB), so that sign-ins never
    /// keep a server's few connections from everyone else. `checking` runs the check itself,
    /// told whether the account exists (a server gives its few places for checks to known
    /// accounts first); an unknown name is checked against a verifier no password matches, so
    /// that a wrong name and a wrong password take as long. It is told too when the account has
    /// no room for another device (the check may then be skipped: the device would be refused).
    public static func signIn(user: String, password: String, label: String,
                              lending: (_ step: (PostgresConnection) throws -> Void) throws -> Void,
                              checking: (_ account: SignInAccount, _ check: () throws -> Void) throws -> Void = { try $1() }) throws -> DeviceKey? {
        var found: String?, full: CloudLimit?
        try lending { connection in
            found = try connection.execute("SELECT vocab.password_verifier($1)", [user]).first?.first ?? nil
            if found != nil { full = try deviceRoom(user, on: connection) }
        }
        var verdict = PasswordVerifier.Check.wrong
        try checking(SignInAccount(exists: found != nil, full: full)) {
            verdict = try PasswordVerifier.check(password, against: found ?? unknownLearnerVerifier)
        }
        guard let stored = found, case .right(let rehash) = verdict else { return nil }
        let better = rehash ? try PasswordVerifier.make(password) : nil
        let secret = Secrets.randomHex(bytes: 32)
        var id: String?
        try lending { connection in
            if let better { try connection.execute("SELECT vocab.replace_verifier($1, $2, $3)", [user, stored, better]) }
            id = try connection.execute("SELECT vocab.add_device($1, $2, $3::bytea)::text",
                                        [user, label, "\\x" + SHA256.hex(Array(secret.utf8))]).first?.first ?? nil
        }
        guard let id else { throw CloudError.serverError("the cloud made no device") }
        return DeviceKey(id: id, secret: secret)
    }

    /// What keeps `user` from adding a device now (nil: nothing). A cloud whose functions are
    /// older than this Vocab's cannot say: nil, and the device's addition says it instead.
    private static func deviceRoom(_ user: String, on connection: PostgresConnection) throws -> CloudLimit? {
        do {
            return try connection.execute("SELECT vocab.device_room($1)", [user]).first?.first?.map(CloudLimit.init(detail:))
        } catch CloudError.serverError {
            return nil
        }
    }

    /// A verifier no password matches, checked when the user is unknown (so that a wrong name
    /// and a wrong password take as long).
    private static let unknownLearnerVerifier = (try? PasswordVerifier.make(Secrets.randomHex(bytes: 32))) ?? "$argon2id$"

    /// The learner `device` signs in for, when its secret is right and it is signed in; throws
    /// `accessDenied` otherwise. A device signed in before the upgrade to schema 6 proves its
    /// secret here once, against its old role's verifier.
    public static func learner(of device: DeviceKey, on connection: PostgresConnection) throws -> String {
        do {
            guard let who = try connection.execute("SELECT vocab.device_learner($1, $2)::text", [device.id, device.secret]).first?.first ?? nil else {
                throw CloudError.accessDenied(server: connection.address.server, detail: "no learner")
            }
            return who
        } catch CloudError.accessDenied(let server, let detail) {
            guard let old = try connection.execute("SELECT vocab.legacy_device_verifier($1)", [device.id]).first?.first ?? nil,
                  PasswordVerifier.scramMatches(device.secret, old) else {
                throw CloudError.accessDenied(server: server, detail: detail)
            }
            try connection.execute("SELECT vocab.adopt_device_secret($1, $2)", [device.id, device.secret])
            return try learner(of: device, on: connection)
        }
    }

    /// The devices of `device`'s account signed in, oldest first.
    public static func list(by device: DeviceKey, on connection: PostgresConnection) throws -> [CloudDevice] {
        try connection.execute("""
            SELECT id::text, label, extract(epoch FROM created)::bigint::text, extract(epoch FROM seen)::bigint::text, this
            FROM vocab.my_devices($1, $2)
            """, [device.id, device.secret]).compactMap { row in
            guard row.count == 5, let id = row[0], let created = row[2].flatMap({ Int64($0) }) else { return nil }
            return CloudDevice(id: id, label: row[1] ?? "", created: created, seen: row[3].flatMap { Int64($0) }, isThis: row[4] == "t")
        }
    }

    /// Signs out one device of `device`'s account (`target`), or every one of them when nil
    /// (the one asking too). Returns how many were signed out.
    @discardableResult
    public static func signOut(_ target: String?, by device: DeviceKey, on connection: PostgresConnection) throws -> Int {
        let count = try connection.execute("SELECT vocab.sign_out($1, $2, $3)::text", [device.id, device.secret, target]).first?.first ?? nil
        return count.flatMap { Int($0) } ?? 0
    }

    /// An administrator signs out every device of `user` (the password still signs in).
    @discardableResult
    public static func signOutAll(of user: String, admin: PostgresConnection) throws -> Int {
        try CloudSchema.requireLearner(user, on: admin)
        let count = try admin.execute("SELECT vocab.sign_out_devices($1, NULL)::text", [user]).first?.first ?? nil
        return count.flatMap { Int($0) } ?? 0
    }
}

/// What a sign-in learns of the account before the password is checked.
public struct SignInAccount: Sendable {
    /// Whether there is a learner of that name.
    public var exists: Bool
    /// The device bound that would refuse a new device now (nil: none).
    public var full: CloudLimit?
}
