/// Terminal styling: colours and screen clearing only on a terminal, never with NO_COLOR.
struct Style {
    let enabled: Bool
    let interactive: Bool

    init(console: Console, environment: [String: String]) {
        interactive = console.stdoutIsTerminal && console.stdinIsTerminal
        enabled = console.stdoutIsTerminal && environment["NO_COLOR"] == nil && environment["TERM"] != "dumb"
    }

    func green(_ text: String) -> String { wrap(text, "32") }
    func red(_ text: String) -> String { wrap(text, "31") }
    func bold(_ text: String) -> String { wrap(text, "1") }
    func dim(_ text: String) -> String { wrap(text, "2") }

    /// The escape that clears the screen, on an interactive terminal.
    var clearScreen: String? { interactive ? "\u{1B}[2J\u{1B}[H" : nil }

    private func wrap(_ text: String, _ code: String) -> String {
        enabled ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}
