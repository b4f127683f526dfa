/// A runnable command: its spec (name, help, options) and what it does.
struct Command: Sendable {
    let spec: CommandSpec
    let run: @Sendable (ParsedArguments, AppContext) throws -> Void
}

/// A word that groups subcommands, like `book` or `word`.
struct CommandGroup: Sendable {
    let name: String
    let abstract: String
    let commands: [Command]
    /// What `vocab NAME` alone (or with options only) runs; nil: it prints this help.
    var defaultCommand: Command? = nil

    var helpText: String {
        var lines = [abstract, "", "Usage: vocab \(name) COMMAND [options]", "", "Commands:"]
        lines += HelpColumns.rows(commands.map { (String($0.spec.name.dropFirst(name.count + 1)), $0.spec.abstract) })
        lines += ["", "Run `vocab \(name) COMMAND --help` for a command's options."]
        return lines.joined(separator: "\n")
    }
}
