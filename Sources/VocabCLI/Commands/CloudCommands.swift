import Foundation
import VocabCore
import VocabSync
import VocabSessions

/// `vocab cloud init|add-user`, `vocab login`, `vocab logout`, `vocab account`.
enum CloudCommands {
    static let group = CommandGroup(name: "cloud", abstract: "The cloud server (for administrators):", commands: [initialize, addUser, limit])

    private static let admin = OptionSpec("admin", value: "URL", help: "An administrator's postgresql://USER@HOST[:PORT]/DATABASE (password from PGPASSWORD or ~/.pgpass).")

    static let initialize = Command(spec: CommandSpec(
        name: "cloud init", abstract: "Install or upgrade the server schema (idempotent).",
        options: [admin],
        discussion: "Creates the vocab schema, its tables and row-level security so that each user sees only their own rows.",
        examples: ["PGPASSWORD=... vocab cloud init --admin postgresql://postgres@localhost/vocab"]
    )) { arguments, context in
        let connection = try adminConnection(arguments)
        try CloudSchema.install(on: connection)
        context.console.print("The Vocab schema is installed on \(connection.address.server)/\(connection.address.database).")
    }

    static let addUser = Command(spec: CommandSpec(
        name: "cloud add-user", abstract: "Create a user who can log in and sync (or set a new password).",
        arguments: [ArgumentSpec("NAME", help: "The user (a database role): letters, digits, underscores.")],
        options: [admin],
        discussion: "The new user's password is asked without echo on a terminal, or read from standard input."
    )) { arguments, context in
        let connection = try adminConnection(arguments)
        let name = arguments.positionals[0]
        guard let password = SecretPrompt.read("Password for \(name): ", console: context.console), !password.isEmpty else {
            throw CloudError.emptyPassword
        }
        try CloudSchema.addUser(name, password: password, on: connection)
        context.console.print("User \(name) can now log in: vocab login postgresql://\(name)@\(connection.address.host):\(connection.address.port)/\(connection.address.database)")
    }

    static let limit = Command(spec: CommandSpec(
        name: "cloud limit", abstract: "Cap how many records (books, words, reviews, deletions) a user may keep.",
        arguments: [ArgumentSpec("NAME", help: "The user."), ArgumentSpec("RECORDS", help: "The most records, or none to lift the cap.")],
        options: [admin],
        discussion: "Past the cap the server refuses a push with a clear message; nothing on the user's devices is lost.",
        examples: ["PGPASSWORD=... vocab cloud limit alice 200000 --admin postgresql://postgres@localhost/vocab"]
    )) { arguments, context in
        let name = arguments.positionals[0], text = arguments.positionals[1]
        let records: Int?
        if text.lowercased() == "none" {
            records = nil
        } else {
            guard let value = Int(text), value >= 0 else {
                throw UsageError.invalidValue(option: "RECORDS", value: text, expected: "a whole number, 0 or more, or none")
            }
            records = value
        }
        let connection = try adminConnection(arguments)
        try CloudSchema.setRecordLimit(name, to: records, on: connection)
        context.console.print(records.map { "\(name) may keep up to \($0) records." } ?? "\(name) may keep any number of records.")
    }

    static let login = Command(spec: CommandSpec(
        name: "login", abstract: "Log in to the cloud server and remember it (password kept private, 0600).",
        arguments: [ArgumentSpec("URL", help: "postgresql://USER@HOST[:PORT]/DATABASE, without a password.")],
        discussion: "The password is asked without echo on a terminal, read from standard input otherwise, or taken from PGPASSWORD;\nan empty answer leaves it to libpq's passfile (~/.pgpass)."
    )) { arguments, context in
        let address = try ServerAddress(url: arguments.positionals[0])
        var password = context.environment["PGPASSWORD"].flatMap { $0.isEmpty ? nil : $0 }
        if password == nil {
            // An empty answer leaves the password to libpq's passfile (~/.pgpass).
            password = SecretPrompt.read("Password for \(address.user): ", console: context.console).flatMap { $0.isEmpty ? nil : $0 }
        }
        let login = CloudLogin(address: address, password: password)
        let status = AccountStatus.check(login, timeouts: CloudTimeouts.from(environment: context.environment))
        if let refusal = status.refusal { throw refusal }
        try login.save(to: try loginPath(context))
        context.console.print("Logged in to \(address.url).")
    }

    static let logout = Command(spec: CommandSpec(name: "logout", abstract: "Forget the cloud login (local words stay).")) { _, context in
        if try SyncService(paths: context.paths).logOut() {
            context.console.print("Logged out.")
        } else {
            context.console.print("Not logged in.")
        }
    }

    /// One line on the account, with the command that logs in when nobody is.
    private static func summary(_ status: AccountStatus) -> String {
        status == .notLoggedIn ? "not logged in: run `vocab login postgresql://USER@HOST/DATABASE`" : status.summary
    }

    static let account = Command(spec: CommandSpec(
        name: "account", abstract: "Show the cloud account's status: available, not logged in, cannot reach server or access denied.",
        options: [.json]
    )) { arguments, context in
        let status = AccountStatus.check(try CloudLogin.load(from: try loginPath(context)),
                                         timeouts: CloudTimeouts.from(environment: context.environment))
        if arguments.flag("json") {
            let name: String
            switch status {
            case .available: name = "available"
            case .notLoggedIn: name = "not logged in"
            case .cannotReachServer: name = "cannot reach server"
            case .accessDenied: name = "access denied"
            }
            context.console.print(JSONValue.object([("status", .string(name)), ("detail", .string(summary(status)))]).pretty)
        } else {
            context.console.print(summary(status))
        }
        if status.refusal != nil { throw SilentExit(category: .cloudUnavailable) }
    }

    /// Where the login lives: next to config.json, private to the user.
    static func loginPath(_ context: AppContext) throws -> String {
        try context.paths.loginPath()
    }

    private static func adminConnection(_ arguments: ParsedArguments) throws -> PostgresConnection {
        guard let url = arguments.value("admin") else {
            throw UsageError.missingArgument(name: "--admin URL", command: "cloud")
        }
        return try PostgresConnection(try ServerAddress(url: url), password: nil)
    }
}

/// Ends a command that has already said what happened, with its category's exit code.
struct SilentExit: Error {
    let category: ErrorCategory
}
