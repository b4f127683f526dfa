import VocabCore

/// A malformed command line (exit code 2).
enum UsageError: TerminalOnlyError {
    case unknownCommand(String, suggestion: String?)
    case unknownOption(String, command: String, suggestion: String?)
    case missingValue(option: String, valueName: String, command: String)
    case flagTakesNoValue(option: String, command: String)
    case repeatedOption(option: String, command: String)
    case missingArgument(name: String, command: String)
    case unexpectedArgument(String, command: String)
    case invalidValue(option: String, value: String, expected: String)
    case conflictingOptions(String, String)

    var category: ErrorCategory { .usage }

    var english: String {
        switch self {
        case .unknownCommand(let name, let suggestion):
            return "Unknown command \"\(name)\"." + (suggestion.map { " Did you mean `vocab \($0)`?" } ?? "")
                + " See `vocab help`."
        case .unknownOption(let option, let command, let suggestion):
            return "Unknown option \(option) for `vocab \(command)`." + (suggestion.map { " Did you mean \($0)?" } ?? "")
                + hint(command)
        case .missingValue(let option, let valueName, let command):
            return "The option --\(option) needs a value (\(valueName))." + hint(command)
        case .flagTakesNoValue(let option, let command):
            return "The option --\(option) takes no value." + hint(command)
        case .repeatedOption(let option, let command):
            return "The option --\(option) was given more than once." + hint(command)
        case .missingArgument(let name, let command):
            return "Missing \(name)." + hint(command)
        case .unexpectedArgument(let argument, let command):
            return "Unexpected argument \"\(argument)\" (quote text that contains spaces)." + hint(command)
        case .invalidValue(let option, let value, let expected):
            return "Invalid value \"\(value)\" for --\(option): expected \(expected)."
        case .conflictingOptions(let first, let second):
            return "The options \(first) and \(second) cannot be used together."
        }
    }

    private func hint(_ command: String) -> String {
        " See `vocab \(command) --help`."
    }
}
