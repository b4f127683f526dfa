import Foundation
import VocabCore
import VocabSync
import VocabSessions

/// `vocab cloud init|add-user`, `vocab login`, `vocab logout`, `vocab account`.
enum CloudCommands {
    static let group = CommandGroup(name: "cloud", abstract: "The cloud server (for administrators):", commands: [initialize, addUser, limit, guardCommand])

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
        name: "cloud limit", abstract: "Cap how many records (books, words, reviews, deletions) and bytes a user may keep.",
        arguments: [ArgumentSpec("NAME", help: "The user."), ArgumentSpec("RECORDS", help: "The most records, or none to lift the cap.")],
        options: [admin, OptionSpec("bytes", value: "N", help: "Also cap the bytes the records take (e.g. 268435456 or 256MiB), or none.")],
        discussion: """
            New users start with 500,000 records and 256 MiB. Past a cap the server refuses a push with a clear message; \
            nothing on the user's devices is lost. Waits at most 3 s for the user's account row, then names who holds it.
            """,
        examples: ["PGPASSWORD=... vocab cloud limit alice 200000 --bytes 512MiB --admin postgresql://postgres@localhost/vocab"]
    )) { arguments, context in
        let name = arguments.positionals[0]
        let records = try capValue(arguments.positionals[1], option: "RECORDS")
        let bytes: Int?? = try arguments.value("bytes").map { try capValue($0, option: "bytes") }
        let connection = try adminConnection(arguments)
        try CloudSchema.setLimit(name, records: records, bytes: bytes, on: connection)
        context.console.print(records.map { "\(name) may keep up to \($0) records." } ?? "\(name) may keep any number of records.")
        if case .some(let cap) = bytes {
            context.console.print(cap.map { "\(name) may keep up to \($0) bytes." } ?? "\(name) may keep any number of bytes.")
        }
    }

    /// "none" → nil; "200000", "256MiB", "1GiB" → the number.
    private static func capValue(_ text: String, option: String) throws -> Int? {
        if text.lowercased() == "none" { return nil }
        let units: [(String, Int)] = [("gib", 1 << 30), ("mib", 1 << 20), ("kib", 1 << 10)]
        let lowered = text.lowercased()
        let (digits, scale) = units.first { lowered.hasSuffix($0.0) }.map { (String(lowered.dropLast($0.0.count)), $0.1) } ?? (lowered, 1)
        guard let value = Int(digits), value >= 0, value <= Int.max / scale else {
            throw UsageError.invalidValue(option: option, value: text, expected: "a whole number, 0 or more (KiB, MiB, GiB allowed for bytes), or none")
        }
        return value * scale
    }

    static let guardCommand = Command(spec: CommandSpec(
        name: "cloud guard", abstract: "Enforce the bounds no user can lift: end sessions idle in a transaction or running too long.",
        options: [admin,
                  OptionSpec("idle", value: "SECONDS", help: "Idle in a transaction at most this long (default 10)."),
                  OptionSpec("statement", value: "SECONDS", help: "One statement at most this long (default 30)."),
                  OptionSpec("transaction", value: "SECONDS", help: "One transaction at most this long (default 60)."),
                  OptionSpec("once", help: "One round, then stop (for cron or a test).")],
        discussion: """
            Runs until stopped (Ctrl-C, or systemd: docs/vocab-cloud-guard.service), checking every second. A user can set his \
            own time-outs to nothing; the guard ends his sessions past these bounds whatever he set, so nobody holds a lock, \
            a snapshot or a connection long. Administrators' sessions are never touched. Prints one line per session it ends.
            """,
        examples: ["PGPASSWORD=... vocab cloud guard --admin postgresql://postgres@localhost/vocab"]
    )) { arguments, context in
        var guardian = CloudGuard()
        func seconds(_ name: String, _ fallback: Int) throws -> Int {
            guard let text = arguments.value(name) else { return fallback }
            guard let value = Int(text), value >= 1 else { throw UsageError.invalidValue(option: name, value: text, expected: "a whole number of seconds, 1 or more") }
            return value
        }
        guardian.idleInTransactionSeconds = try seconds("idle", 10)
        guardian.statementSeconds = try seconds("statement", 30)
        guardian.transactionSeconds = try seconds("transaction", 60)
        var connection = try adminConnection(arguments)
        if !arguments.flag("once") {
            context.console.print("Guarding: idle in a transaction \(guardian.idleInTransactionSeconds) s, one statement \(guardian.statementSeconds) s, one transaction \(guardian.transactionSeconds) s (Ctrl-C stops).")
        }
        repeat {
            do {
                for ended in try guardian.sweep(on: connection) {
                    context.console.print("Ended \(ended.user)'s session \(ended.pid): \(ended.reason.rawValue) for \(ended.seconds) s.")
                }
            } catch CloudError.unreachable where !arguments.flag("once") {
                sleep(1)  // the server restarts: connect again and go on
                connection = (try? adminConnection(arguments)) ?? connection
            }
            if !arguments.flag("once") { sleep(1) }
        } while !arguments.flag("once")
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
