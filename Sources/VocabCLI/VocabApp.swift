import FoundationEssentials
import VocabCore
import VocabSessions

/// The `vocab` program: finds the command named by argv, runs it, and turns any error into
/// one line on standard error and an exit code (DESIGN.md §8), in this one place.
public enum VocabApp {
    static let version = "0.1.0"

    /// Runs `vocab` with `arguments` (argv without the program name); returns the exit code.
    /// `invocation`: the arguments that run this program as `vocab` again (for the detached
    /// upkeep: indexing, automatic backup): `["vocab"]`, or `["vocab-bench", "vocab"]` inside the benchmark.
    public static func main(arguments: [String], environment: [String: String] = ProcessEnvironment.current(),
                            invocation: [String] = ["vocab"]) -> Int32 {
        let console = Console()
        let context = AppContext(console: console, environment: environment)
        defer { console.flush() }
        do {
            try dispatch(arguments, context: context)
            startBackgroundUpkeepIfDue(context, invocation: invocation)
            return 0
        } catch let exit as SilentExit {
            return exit.category.exitCode
        } catch let error as UserFacingError {
            console.error("vocab: \(TerminalWording.message(for: error))")
            return error.category.exitCode
        } catch {
            console.error("vocab: unexpected error: \(error)")
            return 1
        }
    }

    /// After a command that changed the store, `vocab maintain --auto` in the background when
    /// words wait to be indexed for search or a backup is due.
    /// `VOCAB_BACKGROUND=off` turns it off (benchmarks and scripts that delete the store at once).
    private static func startBackgroundUpkeepIfDue(_ context: AppContext, invocation: [String]) {
        guard context.storeChanged, context.openedStorePath != nil, context.environment["VOCAB_BACKGROUND"] != "off" else { return }
        // Only whether to start the upkeep: a store that cannot say starts none (the command's own work is done).
        guard let library = try? context.library(), Upkeep(policy: context.paths.backupPolicy()).isDue(library, now: .now()) else { return }
        BackupCommands.startDetached(invocation + ["maintain", "--auto"], environment: context.environment)
    }

    static let groups: [CommandGroup] = [BookCommands.group, WordCommands.group, CloudCommands.group, BackupCommands.group]
    static let topLevel: [Command] = [
        HomeCommand.command, TransferCommands.importWords, TransferCommands.export, GameCommand.command,
        StudyCommands.study, StudyCommands.due, StudyCommands.review, StatsCommand.command, StarterCommand.command,
        OptimizeCommand.command, MaintainCommand.command, ServeCommand.command,
        DictionaryCommands.dict, DictionaryCommands.say,
        CloudCommands.login, CloudCommands.logout, CloudCommands.devices, CloudCommands.account, SyncCommand.command,
    ] + SharingCommands.commands

    private static func dispatch(_ arguments: [String], context: AppContext) throws {
        guard let first = arguments.first else {
            try HomeCommand.command.run(ParsedArguments(), context)
            return
        }
        let rest = Array(arguments.dropFirst())
        switch first {
        case "help", "--help", "-h":
            try showHelp(for: rest, context: context)
            return
        case "--version", "version":
            context.console.print("vocab \(version)")
            return
        default:
            break
        }
        if let group = groups.first(where: { $0.name == first }) {
            guard let sub = rest.first, !sub.hasPrefix("-") else {
                if let command = group.defaultCommand, !rest.contains("--help"), !rest.contains("-h") {
                    try run(command, rest, context: context)
                } else {
                    context.console.print(group.helpText)
                }
                return
            }
            guard let command = group.commands.first(where: { $0.spec.name == "\(group.name) \(sub)" }) else {
                let names = group.commands.map { String($0.spec.name.dropFirst(group.name.count + 1)) }
                throw UsageError.unknownCommand("\(group.name) \(sub)", suggestion: closest(sub, in: names).map { "\(group.name) \($0)" })
            }
            try run(command, Array(rest.dropFirst()), context: context)
            return
        }
        if let command = topLevel.first(where: { $0.spec.name == first }) {
            try run(command, rest, context: context)
            return
        }
        let names = groups.map(\.name) + topLevel.map(\.spec.name).filter { !$0.isEmpty }
        throw UsageError.unknownCommand(first, suggestion: closest(first, in: names))
    }

    private static func run(_ command: Command, _ arguments: [String], context: AppContext) throws {
        let parsed = try ArgumentParser.parse(arguments, for: command.spec)
        if parsed.helpRequested {
            context.console.print(command.spec.helpText)
            return
        }
        try command.run(parsed, context)
    }

    private static func showHelp(for topic: [String], context: AppContext) throws {
        guard let first = topic.first else {
            context.console.print(overview)
            return
        }
        if let group = groups.first(where: { $0.name == first }) {
            if let sub = topic.dropFirst().first,
               let command = group.commands.first(where: { $0.spec.name == "\(first) \(sub)" }) {
                context.console.print(command.spec.helpText)
            } else {
                context.console.print(group.helpText)
            }
            return
        }
        if let command = topLevel.first(where: { $0.spec.name == first }) {
            context.console.print(command.spec.helpText)
            return
        }
        throw UsageError.unknownCommand(first, suggestion: nil)
    }

    static var overview: String {
        var lines = ["Vocab keeps your word books and drills them.", "", "Usage: vocab [COMMAND] [options]", ""]
        lines.append("  vocab                 Home: your books and what to do next.")
        for group in groups {
            lines += ["", "\(group.abstract)"]
            lines += HelpColumns.rows(group.commands.map { ("vocab " + $0.spec.name, $0.spec.abstract) })
        }
        let others = topLevel.filter { !$0.spec.name.isEmpty }
        if !others.isEmpty {
            lines += [""]
            lines += HelpColumns.rows(others.map { ("vocab " + $0.spec.name, $0.spec.abstract) })
        }
        lines += ["", "Every command has --help. Data lives in $VOCAB_HOME",
                  "(default ${XDG_DATA_HOME:-~/.local/share}/vocab)."]
        return lines.joined(separator: "\n")
    }

    private static func closest(_ typed: String, in names: [String]) -> String? {
        names.map { ($0, EditDistance.between($0, typed)) }.filter { $0.1 <= 2 }.min { $0.1 < $1.1 }?.0
    }
}
