import Foundation
import VocabStore
import VocabCore
#if canImport(Glibc)
import Glibc
#endif

/// The saved cloud login: the server address in a 0600 file, with the password beside it in
/// the same private file (never in output, logs or files others can read).
public struct CloudLogin: Sendable, Equatable {
    public var address: ServerAddress
    public var password: String?

    public init(address: ServerAddress, password: String?) {
        self.address = address
        self.password = password
    }

    /// Reads the login from `path`; nil when there is none. A login file that cannot be read
    /// is an error, not "no login".
    public static func load(from path: String) throws -> CloudLogin? {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { return nil }
        guard !isFolder.boolValue, let data = FileManager.default.contents(atPath: path) else {
            let reason = isFolder.boolValue ? "it is a folder" : access(path, R_OK) == 0 ? "an error reading it" : String(cString: strerror(errno))
            throw CloudError.unreadableLogin(path: path, reason: reason)
        }
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let host = object["host"] as? String, let port = object["port"] as? Int,
              let database = object["database"] as? String, let user = object["user"] as? String else {
            throw CloudError.invalidURL("the saved login in \(path)")
        }
        return CloudLogin(address: ServerAddress(host: host, port: port, database: database, user: user),
                          password: object["password"] as? String)
    }

    /// Writes the login to `path`, readable and writable by the user only (0600 from creation).
    public func save(to path: String) throws {
        var object: [String: Any] = ["host": address.host, "port": address.port, "database": address.database, "user": address.user]
        if let password { object["password"] = password }
        let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        try FileManager.default.createDirectory(atPath: FilePath.folder(of: path), withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        do {
            try PrivateFile.replace(path, with: [UInt8](data))
        } catch let failure as PrivateFile.WriteFailed {
            throw CloudError.serverError("cannot write \(path): \(failure.reason)")
        }
    }
}

/// What `vocab account` reports, like the original app's account status.
public enum AccountStatus: Equatable, Sendable {
    case available(ServerAddress)
    case notLoggedIn
    case cannotReachServer(CloudError)
    case accessDenied(CloudError)

    /// Checks the login: connects, and makes sure the Vocab schema is there and usable.
    public static func check(_ login: CloudLogin?, timeouts: CloudTimeouts = CloudTimeouts()) -> AccountStatus {
        open(login, timeouts: timeouts).status
    }

    /// Checks the login like `check`, and hands back the checked connection when the account
    /// is available (so that a cloud command connects once).
    public static func open(_ login: CloudLogin?, timeouts: CloudTimeouts = CloudTimeouts()) -> (status: AccountStatus, connection: PostgresConnection?) {
        guard let login else { return (.notLoggedIn, nil) }
        do {
            let connection = try PostgresConnection(login.address, password: login.password, timeouts: timeouts)
            let server = login.address.server
            let installed = try connection.execute("SELECT to_regclass('vocab.meta') IS NOT NULL").first?.first ?? nil
            guard installed == "t" else { return (.accessDenied(.schemaMissing(server: server)), nil) }
            let text = try connection.execute("SELECT value FROM vocab.meta WHERE key = 'schema_version'").first?.first ?? nil
            let found = text.flatMap { Int($0) } ?? 0
            if found < CloudSchema.version {
                return (.accessDenied(.schemaTooOld(server: server, found: found, needed: CloudSchema.version)), nil)
            }
            if found > CloudSchema.version {
                return (.accessDenied(.schemaTooNew(server: server, found: found, known: CloudSchema.version)), nil)
            }
            _ = try connection.execute("SELECT count(*) FROM vocab.counts() WHERE false")
            return (.available(login.address), connection)
        } catch let error as CloudError {
            if case .unreachable = error { return (.cannotReachServer(error), nil) }
            return (.accessDenied(error), nil)
        } catch {
            return (.cannotReachServer(.unreachable(server: login.address.server, detail: "\(error)")), nil)
        }
    }

    /// One line on the account's state.
    public var summary: String {
        switch self {
        case .available(let address): return "available: \(address.url)"
        case .notLoggedIn: return "not logged in"
        case .cannotReachServer(let error): return "cannot reach server: \(error.message)"
        case .accessDenied(let error): return "access denied: \(error.message)"
        }
    }

    /// The error a cloud command refuses with when the account is not available.
    public var refusal: CloudError? {
        switch self {
        case .available: return nil
        case .notLoggedIn: return .notLoggedIn
        case .cannotReachServer(let error), .accessDenied(let error): return error
        }
    }
}
