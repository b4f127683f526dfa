/// A command-line option: `--name VALUE`, or a flag when `valueName` is nil.
struct OptionSpec: Sendable {
    let name: String
    let short: Character?
    let valueName: String?
    let help: String
    let repeatable: Bool

    init(_ name: String, short: Character? = nil, value valueName: String? = nil, repeatable: Bool = false, help: String) {
        self.name = name
        self.short = short
        self.valueName = valueName
        self.help = help
        self.repeatable = repeatable
    }

    var isFlag: Bool { valueName == nil }

    /// Options several commands share, declared once.
    static let json = OptionSpec("json", help: "Print machine-readable JSON.")
    static let book = OptionSpec("book", short: "b", value: "BOOK", help: "The book, by name or id.")
    static let yes = OptionSpec("yes", short: "y", help: "Do it without asking for confirmation.")
}

/// A positional argument.
struct ArgumentSpec: Sendable {
    let name: String
    let help: String
    let optional: Bool
    let variadic: Bool

    init(_ name: String, optional: Bool = false, variadic: Bool = false, help: String) {
        self.name = name
        self.help = help
        self.optional = optional
        self.variadic = variadic
    }
}

/// What a command accepts and how it explains itself in `--help`.
struct CommandSpec: Sendable {
    /// The words that name the command after `vocab`, e.g. "book add".
    let name: String
    let abstract: String
    var arguments: [ArgumentSpec] = []
    var options: [OptionSpec] = []
    var discussion: String = ""
    var examples: [String] = []

    var usage: String {
        var parts = ["vocab", name].filter { !$0.isEmpty }
        for argument in arguments {
            let shown = argument.variadic ? "\(argument.name)..." : argument.name
            parts.append(argument.optional ? "[\(shown)]" : shown)
        }
        if !options.isEmpty { parts.append("[options]") }
        return parts.joined(separator: " ")
    }

    /// The full `--help` text.
    var helpText: String {
        var lines = ["\(abstract)", "", "Usage: \(usage)"]
        if !arguments.isEmpty {
            lines += ["", "Arguments:"]
            lines += HelpColumns.rows(arguments.map { ($0.name, $0.help) })
        }
        var optionRows = options.map { option -> (String, String) in
            var label = option.short.map { "-\($0), " } ?? "    "
            label += "--\(option.name)"
            if let value = option.valueName { label += " \(value)" }
            return (label, option.help + (option.repeatable ? " (may be repeated)" : ""))
        }
        optionRows.append(("-h, --help", "Show this help."))
        lines += ["", "Options:"]
        lines += HelpColumns.rows(optionRows)
        if !discussion.isEmpty { lines += ["", discussion] }
        if !examples.isEmpty {
            lines += ["", "Examples:"]
            lines += examples.map { "  \($0)" }
        }
        return lines.joined(separator: "\n")
    }
}

/// Two aligned columns, as help screens show them.
enum HelpColumns {
    static func rows(_ rows: [(String, String)], maxWidth: Int = 28) -> [String] {
        let width = min(maxWidth, (rows.map { $0.0.count }.max() ?? 0) + 2)
        return rows.map { label, help in
            let padded = label.count >= width ? label + "  " : label + String(repeating: " ", count: width - label.count)
            return "  " + padded + help
        }
    }
}
