import FoundationEssentials
import Glibc
import VocabCore
import VocabCloudSessions
import VocabCloudAPI
import VocabSessions
import VocabSystem

/// `vocab cloud init|server-password|add-user|limit|revoke`, `vocab login`, `vocab logout`,
/// `vocab account`, `vocab devices`.
enum CloudCommands {
    static let group = CommandGroup(name: "cloud", abstract: "The cloud's database (for administrators):",
                                    commands: [initialize, serverPassword, addUser, limit, revoke])

    private static let admin = OptionSpec("admin", value: "URL", help: "An administrator's " + ServerAddress.form() + " (password from PGPASSWORD or ~/.pgpass).")

    static let initialize = Command(spec: CommandSpec(
        name: "cloud init", abstract: "Install or upgrade the cloud's schema (idempotent; needs a superuser).",
        options: [admin],
        discussion: """
            Creates the vocab schema and the role vocab_server, the only one the Vocab servers (vocab serve --cloud) \
            connect as: learners and devices are rows, never database roles. A cloud of an older Vocab (learners as \
            roles) is upgraded in place: every learner keeps the data, the devices and the password, and the learner \
            and device roles are removed.
            """,
        examples: ["PGPASSWORD=... vocab cloud init --admin postgresql://postgres@localhost/vocab"]
    )) { arguments, context in
        let cloud = try administration(arguments)
        let place = cloud.place
        switch try cloud.install() {
        case .installed(let version): context.console.print("The Vocab schema (version \(version)) is installed on \(place).")
        case .upgraded(let from, let to): context.console.print("The Vocab schema on \(place) is upgraded from version \(from) to \(to).")
        case .refreshed(let version): context.console.print("The Vocab schema on \(place) (version \(version)) has this Vocab's functions.")
        case .upToDate(let version): context.console.print("The Vocab schema on \(place) is up to date (version \(version)); nothing was changed.")
        }
        if try !cloud.serverCanLogIn() {
            context.console.print("Next: give the Vocab servers their password with `vocab cloud server-password --admin URL`.")
        }
    }

    static let serverPassword = Command(spec: CommandSpec(
        name: "cloud server-password", abstract: "Set the password the Vocab servers connect with (the role vocab_server).",
        options: [admin],
        discussion: """
            The password is asked without echo on a terminal, or read from standard input. Each Vocab server is then \
            started with it in PGPASSWORD or ~/.pgpass: vocab serve --cloud postgresql://vocab_server@HOST/DATABASE.
            """,
        examples: ["vocab cloud server-password --admin postgresql://postgres@localhost/vocab < server-password.txt"]
    )) { arguments, context in
        let cloud = try administration(arguments)
        guard let password = SecretPrompt.read("Password for \(CloudAdministration.serverRole): ", console: context.console), !password.isEmpty else {
            throw CloudError.emptyPassword
        }
        try cloud.setServerPassword(password)
        context.console.print("The Vocab servers can now connect as \(CloudAdministration.serverRole) to \(cloud.place).")
    }

    static let addUser = Command(spec: CommandSpec(
        name: "cloud add-user", abstract: "Create a learner who can sign in and sync (or set a new password).",
        arguments: [ArgumentSpec("NAME", help: "The learner's user name: letters, digits, underscores.")],
        options: [admin],
        discussion: """
            The password is asked without echo on a terminal, or read from standard input; the cloud keeps only its \
            Argon2id hash. A new password leaves the learner's devices signed in (vocab cloud revoke signs them out).
            """
    )) { arguments, context in
        let cloud = try administration(arguments)
        let name = arguments.positionals[0]
        guard let password = SecretPrompt.read("Password for \(name): ", console: context.console), !password.isEmpty else {
            throw CloudError.emptyPassword
        }
        try cloud.addUser(name, password: password)
        context.console.print("User \(name) can now sign in through a Vocab server: vocab login https://\(name)@HOST")
    }

    static let limit = Command(spec: CommandSpec(
        name: "cloud limit", abstract: "Cap how many records (books, words, reviews, deletions) and bytes a user may keep.",
        arguments: [ArgumentSpec("NAME", help: "The user."), ArgumentSpec("RECORDS", help: "The most records, or none to lift the cap.")],
        options: [admin, OptionSpec("bytes", value: "N", help: "Also cap the bytes the records take (e.g. 268435456 or 256MiB), or none.")],
        discussion: """
            New users start with \(CloudAdministration.defaultMaxRecords) records and \(ByteCount.describe(CloudAdministration.defaultMaxBytes)). Past a cap the server refuses a push with a clear message; \
            nothing on the user's devices is lost. Waits at most 3 s for the user's account row, then names who holds it.
            """,
        examples: ["PGPASSWORD=... vocab cloud limit alice 200000 --bytes 512MiB --admin postgresql://postgres@localhost/vocab"]
    )) { arguments, context in
        let name = arguments.positionals[0]
        let records = try capValue(arguments.positionals[1], option: "RECORDS")
        let bytes: Int?? = try arguments.value("bytes").map { try capValue($0, option: "bytes") }
        try administration(arguments).setLimit(name, records: records, bytes: bytes)
        context.console.print(records.map { "\(name) may keep up to \($0) records." } ?? "\(name) may keep any number of records.")
        if case .some(let cap) = bytes {
            context.console.print(cap.map { "\(name) may keep up to \($0) bytes." } ?? "\(name) may keep any number of bytes.")
        }
    }

    static let revoke = Command(spec: CommandSpec(
        name: "cloud revoke", abstract: "Sign out every device of a user (each needs the password again).",
        arguments: [ArgumentSpec("NAME", help: "The user.")],
        options: [admin],
        discussion: "Each is refused at its next request, by every Vocab server. To lock the user out, set a new password with `vocab cloud add-user` as well.",
        examples: ["PGPASSWORD=... vocab cloud revoke alice --admin postgresql://postgres@localhost/vocab"]
    )) { arguments, context in
        let name = arguments.positionals[0]
        let count = try administration(arguments).signOutAll(of: name)
        context.console.print("Signed out \(plural(count, "device")) of \(name).")
    }

    /// "none" → nil; "200000", "256MiB", "1GiB" → the number.
    static func capValue(_ text: String, option: String) throws -> Int? {
        if text.lowercased() == "none" { return nil }
        let units: [(String, Int)] = [("gib", 1 << 30), ("mib", 1 << 20), ("kib", 1 << 10)]
        let lowered = text.lowercased()
        let (digits, scale) = units.first { lowered.hasSuffix($0.0) }.map { (String(lowered.dropLast($0.0.count)), $0.1) } ?? (lowered, 1)
        guard let value = Int(digits), value >= 0, value <= Int.max / scale else {
            throw UsageError.invalidValue(option: option, value: text, expected: "a whole number, 0 or more (KiB, MiB, GiB allowed for bytes), or none")
        }
        return value * scale
    }

    static let login = Command(spec: CommandSpec(
        name: "login", abstract: "Sign this device in to a cloud account (the password is checked once, never kept).",
        arguments: [ArgumentSpec("URL", help: "https://USER@HOST[:PORT]: the Vocab server, and your user name; no password in it.")],
        options: [OptionSpec("device-name", value: "NAME", help: "What to call this device in the account's list (default: terminal on HOSTNAME)."),
                  OptionSpec("ca-file", value: "FILE", help: "Trust the Vocab server's certificate in FILE (one it made itself) instead of the system's.")],
        discussion: """
            The password is asked without echo on a terminal, read from standard input otherwise, or taken from
            VOCAB_PASSWORD. The server checks it once and gives this device a secret of its own, kept in a private file
            (0600); `vocab logout` signs the device out, `vocab devices` lists them. Plain http:// is taken only to this
            machine.
            """,
        examples: ["vocab login https://alice@vocab.example.org", "vocab login https://alice@127.0.0.1:8443 --ca-file cert.pem"]
    )) { arguments, context in
        let url = arguments.positionals[0]
        let user = try SyncService.loginAddress(url).user  // a bad address before the password is asked
        var password = context.environment["VOCAB_PASSWORD"].flatMap { $0.isEmpty ? nil : $0 }
        if password == nil {
            password = SecretPrompt.read("Password for \(user): ", console: context.console).flatMap { $0.isEmpty ? nil : $0 }
        }
        let caFile = try arguments.value("ca-file").map { file -> String in
            var path = file
            if !path.hasPrefix("/"), let here = getcwd(nil, 0) {  // kept in the login: it must not depend on where sync runs
                path = FilePath.joining(String(cString: here), file)
                free(here)
            }
            guard FileStatus.byteSize(of: path) != nil else { throw UsageError.invalidValue(option: "ca-file", value: file, expected: "a certificate file (PEM)") }
            return path
        }
        let label = arguments.value("device-name") ?? DeviceLabel.of("terminal")
        let service = try SyncService(paths: context.paths)
        let account = try service.logIn(url: url, password: password, label: label, caFile: caFile)
        context.console.print("Logged in to \(account.url) as \"\(label)\".")
    }

    static let logout = Command(spec: CommandSpec(
        name: "logout", abstract: "Sign this device out of the cloud account and forget it (local words stay).",
        options: [OptionSpec("everywhere", help: "Sign out every device of the account: each needs the password again.")]
    )) { arguments, context in
        let everywhere = arguments.flag("everywhere")
        guard let result = try SyncService(paths: context.paths).logOut(everywhere: everywhere) else {
            context.console.print("Not logged in.")
            return
        }
        if let problem = result.serverError {
            context.console.print("Logged out here; the server could not sign the device out (\(problem.message)) — sign it out from another device with `vocab devices`.")
        } else if everywhere {
            context.console.print("Logged out: \(plural(result.signedOut, "device")) of the account signed out.")
        } else {
            context.console.print("Logged out.")
        }
    }

    static let devices = Command(spec: CommandSpec(
        name: "devices", abstract: "List the devices signed in to the cloud account, or sign one out.",
        options: [OptionSpec("sign-out", value: "ID", help: "Sign out the device with this id (from the list): it needs the password again."), .json],
        examples: ["vocab devices", "vocab devices --sign-out vd_3f2a…"]
    )) { arguments, context in
        let service = try SyncService(paths: context.paths)
        if let id = arguments.value("sign-out") {
            guard try service.signOut(device: id) else { throw UnknownDevice(id: id) }
            context.console.print("Signed out \(id).")
            return
        }
        let devices = try service.devices()
        if arguments.flag("json") {
            context.console.print(JSONValue.array(devices.map { device in
                .object([("id", .string(device.id)), ("label", .string(device.label)), ("created", .int(device.created)),
                         ("seen", device.seen.map { .int($0) } ?? .null), ("this", .bool(device.isThis))])
            }).pretty)
            return
        }
        for device in devices {
            let seen = device.seen.map { "last seen \(dateText($0))" } ?? "not synced yet"
            context.console.print("\(device.isThis ? "*" : " ") \(device.id)  \(device.label)  signed in \(dateText(device.created)), \(seen)")
        }
        context.console.print("\(plural(devices.count, "device")) signed in (* this one).")
    }

    /// "2026-12-02 19:30" in the local time zone.
    private static func dateText(_ seconds: Int64) -> String {
        var time = time_t(seconds), parts = tm()
        guard localtime_r(&time, &parts) != nil else { return String(seconds) }
        var buffer = [CChar](repeating: 0, count: 32)
        let count = strftime(&buffer, buffer.count, "%Y-%m-%d %H:%M", &parts)
        return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// One line on the account, with the command that logs in when nobody is.
    private static func summary(_ status: AccountStatus) -> String {
        status == .notLoggedIn ? "not logged in: run `vocab login https://USER@HOST`" : status.summary
    }

    static let account = Command(spec: CommandSpec(
        name: "account", abstract: "Show the cloud account's status: available, not logged in, cannot reach server or access denied.",
        options: [.json]
    )) { arguments, context in
        let service = try SyncService(paths: context.paths)
        _ = try service.login()  // a login file that cannot be read is an error here, not a status
        let status = service.accountStatus()
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

    private static func administration(_ arguments: ParsedArguments) throws -> CloudAdministration {
        guard let url = arguments.value("admin") else {
            throw UsageError.missingArgument(name: "--admin URL", command: "cloud")
        }
        return try CloudAdministration(address: try ServerAddress(url: url))
    }
}

/// `vocab devices --sign-out` named no device of the account.
struct UnknownDevice: TerminalOnlyError {
    let id: String
    var category: ErrorCategory { .userInput }
    var english: String { "No device of this account has the id \(id) (see `vocab devices`). Nothing was changed." }
}

/// Ends a command that has already said what happened, with its category's exit code.
struct SilentExit: Error {
    let category: ErrorCategory
}
