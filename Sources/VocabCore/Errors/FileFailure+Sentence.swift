import VocabSystem

extension FileFailure: UserFacingError {
    public var category: ErrorCategory { .userInput }
    public var sentence: Sentence {
        switch (operation, reason) {
        case (.read, .missing): return Sentence("Cannot read %@: no such file.", .text(path))
        case (.read, .folder): return Sentence("Cannot read %@: it is a folder.", .text(path))
        case (.read, .denied): return Sentence("Cannot read %@: permission denied.", .text(path))
        case (.read, .system(let reason)): return Sentence("Cannot read %@: %@.", .text(path), .text(reason))
        case (.write, .missing): return Sentence("Cannot write %@: its folder does not exist.", .text(path))
        case (.write, .folder): return Sentence("Cannot write %@: it is a folder.", .text(path))
        case (.write, .denied): return Sentence("Cannot write %@: permission denied.", .text(path))
        case (.write, .system(let reason)): return Sentence("Cannot write %@: %@.", .text(path), .text(reason))
        }
    }
}

/// A file read in chunks is a stream the word-file readers take.
extension FileReader: ByteStream {}
