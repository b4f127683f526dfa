/// What kind of failure an error is, which decides the exit code the user sees (DESIGN.md §8).
public enum ErrorCategory: Sendable, Equatable {
    /// Bad input from the user; nothing was changed. Exit code 1.
    case userInput
    /// The command line itself was malformed. Exit code 2.
    case usage
    /// The cloud or the account is not available. Exit code 3.
    case cloudUnavailable
    /// A data conflict or a corrupt / foreign database was detected. Exit code 4.
    case conflictOrCorruption
    /// The local store could not do its work: cannot be created or opened, read-only, busy,
    /// disk full, an I/O error. Not the user's input: exit code 5.
    case storeUnavailable

    /// The process exit code for this category.
    public var exitCode: Int32 {
        switch self {
        case .userInput: return 1
        case .usage: return 2
        case .cloudUnavailable: return 3
        case .conflictOrCorruption: return 4
        case .storeUnavailable: return 5
        }
    }
}

/// An error that says what went wrong, and its category.
///
/// Every layer's error enum conforms, so a front end maps any error to an exit code or a status
/// in one place. An error says what went wrong once, as a `Sentence` the catalogue translates;
/// each front end adds what to do next in its own terms (the terminal's commands, the window's
/// pages), never a second wording of what went wrong.
public protocol UserFacingError: Error {
    /// What went wrong and, where it needs no particular front end's means, what to do: one
    /// line that names no command or flag and never contains secrets.
    var sentence: Sentence { get }
    var category: ErrorCategory { get }
    /// What the user can do about it, where the layer knows (each front end words it).
    var remedy: Remedy? { get }
}

extension UserFacingError {
    /// The sentence in plain English (what a device or an embedding app shows).
    public var message: String { sentence.english }
    public var remedy: Remedy? { nil }
}
