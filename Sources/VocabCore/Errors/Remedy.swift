/// What the user can do about a failure, named by the layer that knows it and worded by each
/// front end in its own terms (a command in the terminal, a plain step in the window).
public enum Remedy: Sendable, Equatable {
    /// Install a Debian package; `setting`, when there is one, is the environment variable that
    /// points Vocab at files installed elsewhere.
    case installPackage(String, setting: String? = nil)
    /// Keep the store in a folder the user can write to.
    case chooseWritableDataFolder
    /// Put one of the store's backups back.
    case restoreBackup
}
