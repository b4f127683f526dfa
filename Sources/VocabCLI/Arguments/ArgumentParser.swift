import VocabCore

/// The arguments of one command after parsing: positionals, option values and flags.
struct ParsedArguments {
    var positionals: [String] = []
    var values: [String: [String]] = [:]
    var flags: Set<String> = []
    var helpRequested = false

    /// The last value given for `--name`, if any.
    func value(_ name: String) -> String? { values[name]?.last }

    /// Every value given for a repeatable `--name`.
    func allValues(_ name: String) -> [String] { values[name] ?? [] }

    func flag(_ name: String) -> Bool { flags.contains(name) }

    /// The positional argument at `index`, if given.
    func positional(_ index: Int) -> String? {
        positionals.indices.contains(index) ? positionals[index] : nil
    }
}

/// Parses argv against a `CommandSpec`: `--name value`, `--name=value`, `-x value`, flags,
/// `--` to end options. Unknown options and missing values are usage errors.
enum ArgumentParser {
    static func parse(_ arguments: [String], for spec: CommandSpec) throws -> ParsedArguments {
        var parsed = ParsedArguments()
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if optionsEnded || argument == "-" || !argument.hasPrefix("-") || isNegativeNumber(argument) {
                parsed.positionals.append(argument)
                continue
            }
            if argument == "--" { optionsEnded = true; continue }
            if argument == "--help" || argument == "-h" { parsed.helpRequested = true; continue }

            let (option, inlineValue) = try lookUp(argument, in: spec)
            if option.isFlag {
                guard inlineValue == nil else { throw UsageError.flagTakesNoValue(option: option.name, command: spec.name) }
                parsed.flags.insert(option.name)
                continue
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else if index < arguments.count {
                value = arguments[index]
                index += 1
            } else {
                throw UsageError.missingValue(option: option.name, valueName: option.valueName ?? "VALUE", command: spec.name)
            }
            if !option.repeatable, parsed.values[option.name] != nil {
                throw UsageError.repeatedOption(option: option.name, command: spec.name)
            }
            parsed.values[option.name, default: []].append(value)
        }
        if parsed.helpRequested { return parsed }
        try checkPositionals(parsed.positionals, spec: spec)
        return parsed
    }

    private static func lookUp(_ argument: String, in spec: CommandSpec) throws -> (OptionSpec, String?) {
        if argument.hasPrefix("--") {
            let body = argument.dropFirst(2)
            let name: Substring
            var inlineValue: String?
            if let equals = body.firstIndex(of: "=") {
                name = body[..<equals]
                inlineValue = String(body[body.index(after: equals)...])
            } else {
                name = body
            }
            guard let option = spec.options.first(where: { $0.name == name }) else {
                throw UsageError.unknownOption("--\(name)", command: spec.name, suggestion: suggestion(String(name), spec))
            }
            return (option, inlineValue)
        }
        // A single-letter option: -b BOOK, or -bBOOK.
        let letters = Array(argument.dropFirst())
        guard let letter = letters.first, let option = spec.options.first(where: { $0.short == letter }) else {
            throw UsageError.unknownOption(argument, command: spec.name, suggestion: nil)
        }
        let rest = String(letters.dropFirst())
        return (option, rest.isEmpty ? nil : rest)
    }

    private static func checkPositionals(_ positionals: [String], spec: CommandSpec) throws {
        let required = spec.arguments.filter { !$0.optional }.count
        if positionals.count < required {
            let missing = spec.arguments[positionals.count]
            throw UsageError.missingArgument(name: missing.name, command: spec.name)
        }
        let takesMore = spec.arguments.last?.variadic ?? false
        if !takesMore, positionals.count > spec.arguments.count {
            throw UsageError.unexpectedArgument(positionals[spec.arguments.count], command: spec.name)
        }
    }

    private static func isNegativeNumber(_ argument: String) -> Bool {
        argument.count > 1 && argument.dropFirst().allSatisfy(\.isNumber)
    }

    /// The option name closest to a mistyped one, when one is close.
    private static func suggestion(_ typed: String, _ spec: CommandSpec) -> String? {
        spec.options.map(\.name)
            .map { ($0, EditDistance.between($0, typed)) }
            .filter { $0.1 <= 2 }
            .min { $0.1 < $1.1 }
            .map { "--\($0.0)" }
    }
}

/// Levenshtein distance, for "did you mean" suggestions.
enum EditDistance {
    static func between(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
