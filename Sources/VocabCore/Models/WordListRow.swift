import FoundationEssentials

/// A row of a long word list, read when the list shows it.
public struct WordListRow: Sendable {
    public var word: Word
    /// When the word is due for review; nil when it was never reviewed.
    public var due: Timestamp?

    public init(word: Word, due: Timestamp?) {
        self.word = word
        self.due = due
    }
}
