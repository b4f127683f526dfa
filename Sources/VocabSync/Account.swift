import FoundationEssentials
import VocabStore
import VocabCore
import VocabCloudAPI
import VocabSystem
#if canImport(Glibc)
import Glibc
#endif

/// The saved cloud login, in a 0600 file: the Vocab server, and the device's id and secret
/// (`account` names the learner the device belongs to). The learner's password is never kept.
/// A login saved by an older Vocab names a PostgreSQL server (a device's role, or the
/// learner's own): it is still read, so that the device can be told to sign in again through
/// a Vocab server.
public struct CloudLogin: Sendable, Equatable {
    /// Where to connect, as whom (the device's role).
    public var address: ServerAddress
    /// The device's secret (or, in an older login, the learner's password).
    public var password: String?
    /// The learner this device signs in for; nil in a login of the learner's own role.
    public var account: String?
    /// Certificates to trust for the Vocab server instead of the system's (one of its own).
    public var caFile: String?
    /// The account as this device reached it through SQL before this login (its store is
    /// bound to that URL, and is moved to this login's account at the next sync).
    public var formerAccount: String?

    public init(address: ServerAddress, password: String?, account: String? = nil, caFile: String? = nil) {
        self.address = address
        self.password = password
        self.account = account
        self.caFile = caFile
    }

    /// Whether the device reaches its account through a Vocab server (HTTPS), not PostgreSQL.
    public var isServerLogin: Bool { address.web != nil }

    /// Whether this is a device's login (its own role and secret), not the learner's password.
    public var isDevice: Bool { account != nil }

    /// The learner's account: the server with the learner's name (what a store is bound to).
    public var accountAddress: ServerAddress {
        var learner = address
        learner.user = account ?? address.user
        return learner
    }

    /// Reads the login from `path`; nil when there is none. A login file that cannot be read
    /// is an error, not "no login".
    public static func load(from path: String) throws -> CloudLogin? {
        var isFolder = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { return nil }
        guard !isFolder, let data = FileManager.default.contents(atPath: path) else {
            let reason = isFolder ? "it is a folder" : access(path, R_OK) == 0 ? "an error reading it" : String(cString: strerror(errno))
            throw CloudError.unreadableLogin(path: path, reason: reason)
        }
        guard let object = try? JSONParser.parse(data), case .object = object else { throw CloudError.invalidURL("the saved login in \(path)") }
        if let web = object["server"]?.stringValue {
            guard let device = object["user"]?.stringValue, let account = object["account"]?.stringValue else {
                throw CloudError.invalidURL("the saved login in \(path)")
            }
            var login = CloudLogin(address: ServerAddress(web: web, user: device), password: object["password"]?.stringValue,
                                   account: account, caFile: object["caFile"]?.stringValue)
            login.formerAccount = object["formerAccount"]?.stringValue
            return login
        }
        guard let host = object["host"]?.stringValue, let port = object["port"]?.int64Value.flatMap({ Int(exactly: $0) }),
              let database = object["database"]?.stringValue, let user = object["user"]?.stringValue else {
            throw CloudError.invalidURL("the saved login in \(path)")
        }
        return CloudLogin(address: ServerAddress(host: host, port: port, database: database, user: user),
                          password: object["password"]?.stringValue, account: object["account"]?.stringValue)
    }

    /// Writes the login to `path`, readable and writable by the user only (0600 from creation).
    public func save(to path: String) throws {
        var object: [String: Any] = ["host": address.host, "port": address.port, "database": address.database, "user": address.user]
        if let web = address.web { object = ["server": web, "user": address.user] }
        if let password { object["password"] = password }
        if let account { object["account"] = account }
        if let caFile { object["caFile"] = caFile }
        if let formerAccount { object["formerAccount"] = formerAccount }
        let data = Array(JSONValue(any: object).compact.utf8)
        try FileManager.default.createDirectory(atPath: FilePath.folder(of: path), withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        do {
            try AtomicFile.replace(path, permissions: 0o600, with: data)
        } catch let failure as FileFailure {
            throw CloudError.serverError(failure.message)
        }
    }
}

extension AccountStatus {
    /// Checks the login: connects, and makes sure the Vocab schema is there and usable.
    public static func check(_ login: CloudLogin?, timeouts: CloudTimeouts = CloudTimeouts()) -> AccountStatus {
        open(login, timeouts: timeouts).status
    }

    /// Checks the login like `check`, and hands back the Vocab server's account when it is
    /// available (so that a cloud command connects once). A login straight to PostgreSQL (an
    /// older Vocab's) is refused: devices reach the cloud only through a Vocab server.
    public static func open(_ login: CloudLogin?, timeouts: CloudTimeouts = CloudTimeouts()) -> (status: AccountStatus, account: ServerAccount?) {
        guard let login else { return (.notLoggedIn, nil) }
        guard login.isServerLogin else {
            return (.accessDenied(.databaseLoginRetired(server: login.address.server, user: login.accountAddress.user)), nil)
        }
        return ServerAccount.status(of: login, timeouts: timeouts)
    }
}
