import VocabCore

/// An error only the terminal meets (its command line, `vocab serve`'s start): said in English,
/// as the terminal speaks, so its sentence is that English as it is and never translated.
protocol TerminalOnlyError: UserFacingError {
    var english: String { get }
}

extension TerminalOnlyError {
    var sentence: Sentence { Sentence("%@", .text(english)) }
}
