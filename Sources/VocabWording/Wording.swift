import FoundationEssentials
import VocabCatalog
import VocabCore
import VocabSessions
import VocabCloudAPI

/// The words of the window and the web app for what the layers below report as values — due
/// times, the study buttons' intervals, what a question takes, errors — in one catalogue's
/// language, with what to do next in a window's or a page's terms, never a terminal command.
public struct Wording: Sendable {
    public let catalog: Catalog

    public init(catalog: Catalog) {
        self.catalog = catalog
    }

    /// `text` in the catalogue's language with `%@` (or `%d`) replaced by the arguments, in order.
    public func tr(_ text: String, _ arguments: CustomStringConvertible...) -> String {
        catalog.translate(text, arguments)
    }

    /// "now", "in 10 minutes", "in 3 days".
    public func due(_ interval: DueInterval) -> String {
        switch interval {
        case .now: return tr("now")
        case .minutes(let count): return count == 1 ? tr("in 1 minute") : tr("in %d minutes", count)
        case .hours(let count): return count == 1 ? tr("in 1 hour") : tr("in %d hours", count)
        case .days(let count): return count == 1 ? tr("in 1 day") : tr("in %d days", count)
        }
    }

    /// A rating button's interval: "10m", "3d", "1.5y" (Korean: "10분", "3일", "1.5년").
    public func button(_ interval: ButtonInterval) -> String {
        switch interval {
        case .minutes(let count): return tr("%dm", count)
        case .hours(let count): return tr("%dh", count)
        case .days(let count): return tr("%dd", count)
        case .months(let count): return tr("%dmo", count)
        case .years(let tenths):
            return tr("%@y", tenths % 10 == 0 ? "\(tenths / 10)" : "\(tenths / 10).\(tenths % 10)")
        }
    }

    /// "Next review in 3 days." or "No reviews scheduled."
    public func nextReview(_ due: Timestamp?, from time: Timestamp) -> String {
        guard let due else { return tr("No reviews scheduled.") }
        return tr("Next review %@.", self.due(DueInterval(due, from: time)))
    }

    /// What to tell a player whose answer was not one.
    public func expected(_ answer: ExpectedAnswer) -> String {
        switch answer {
        case .text: return tr("Type an answer.")
        case .number(let count): return tr("Choose one of the %d answers.", count)
        }
    }

    /// A word field's name as the form labels it.
    public func field(_ name: String) -> String {
        switch WordField(rawValue: name) {
        case .word?: return tr("Word")
        case .definition?: return tr("Definition")
        case .detail?: return tr("Detail")
        case .pronunciation?: return tr("Pronunciation")
        case .synonym?: return tr("Synonym")
        case .antonym?: return tr("Antonym")
        case nil:
            switch BookField(rawValue: name) {
            case .name?: return tr("Name")
            case .explain?: return tr("Explain")
            case .meaning?: return tr("Meaning")
            case .coverWord?: return tr("Cover word")
            case nil: return name
            }
        }
    }

    /// An error in the window's words; one the catalogue has no sentence for shows the layers'
    /// own (plain, command-free) English.
    public func message(for error: Error) -> String {
        switch error {
        case let error as GameSetupError: return game(error)
        case let error as VocabError: return vocab(error) ?? error.message
        case let error as WordFormError: return vocab(error.underlying) ?? error.message
        case let error as BookFormError: return vocab(error.underlying) ?? error.message
        case let error as SyncFailure:
            if case CloudError.cancelled? = error.underlying as? CloudError { return tr("Sync cancelled. Nothing was lost.") }
            return tr("Sync stopped: %@ Nothing was lost: what finished is saved; sync again to go on.", message(for: error.underlying))
        case let error as CloudError: return cloud(error) ?? error.message
        case let error as ImportError: return importing(error) ?? error.message
        case let error as BackupError: return backup(error) ?? error.message
        case let error as UserFacingError: return error.message
        default: return "\(error)"
        }
    }

    private func game(_ error: GameSetupError) -> String {
        switch error {
        case .noBooks:
            return tr("You have no books yet. Make one on the Books page.")
        case .emptyBooks(let names):
            return tr("%@ has no words yet: add some on the Books page, or import a file.", names.joined(separator: ", "))
        case .allMemorized(let names):
            return tr("Every word in %@ is marked memorised.", names.joined(separator: ", "))
        case .noDefinitions:
            return tr("No word here has a definition, which this mode needs. Try Flashcard, or add definitions.")
        case .tooFewMeanings(let found, _):
            return tr("This mode needs at least 2 different definitions to choose from (found %d). Try Spelling.", found)
        }
    }

    private func shared(_ refusal: ShareRefusal) -> String {
        switch refusal {
        case .noSuchShare: return tr("No book is shared under that code (it may have stopped being shared).")
        case .notFollowing: return tr("You do not follow that book.")
        case .ownBook: return tr("That book is your own: it is already here.")
        case .bookNotSynced: return tr("The book is not in the cloud yet: sync first, then share it.")
        case .bookTooLarge: return tr("A shared book may hold %d words at most.", SharingBounds.wordsPerBook)
        case .tooManyShares: return tr("You may share %d books at once: stop sharing one first.", SharingBounds.sharesPerLearner)
        case .tooManyFollows: return tr("You may follow %d books at once: stop following one first.", SharingBounds.followsPerLearner)
        case .listingTooSoon: return tr("A book's listing in the catalogue may change once a minute: try again in a minute.")
        case .shareEnded: return tr("Its owner stopped sharing that book.")
        case .sharedBookFull:
            return tr("A book you share may hold %d words: the changes not yet synced would make one larger. Stop sharing it, or keep it within that, to sync them.",
                      SharingBounds.wordsPerBook)
        }
    }

    private func vocab(_ error: VocabError) -> String? {
        switch error {
        case .emptyField(let name): return tr("%@ must not be empty.", field(name))
        case .fieldTooLong(let name, let limit): return tr("%@ is too long (at most %d characters).", field(name), limit)
        case .invalidCharacters(let name): return tr("%@ contains control characters; use plain text.", field(name))
        case .bookNotFound(let name): return tr("No book named “%@”.", name)
        case .duplicateBookName(let name): return tr("A book named “%@” already exists (book names ignore case).", name)
        case .duplicateWord(let word, let book): return tr("“%@” is already in “%@”.", word, book)
        case .imageTooLarge(let bytes, let limit):
            return tr("The image is %@; the limit is %@.", ByteCount.describe(bytes), ByteCount.describe(limit))
        case .unsupportedImage: return tr("The image is not a PNG, JPEG, GIF or WebP file.")
        case .invalidDate(let text): return tr("“%@” is not a date: use a date such as 2026-11-30.", text)
        case .nothingToLookUp: return tr("Type the word first, then look it up.")
        case .bookIsShared(let name):
            return tr("“%@” is a shared book: you can study it, but only its owner changes it. Copy it to make a book of your own.", name)
        default: return nil
        }
    }

    private func cloud(_ error: CloudError) -> String? {
        switch error {
        case .shareRefused(let refusal): return shared(refusal)
        case .notLoggedIn: return tr("Not logged in: log in to your cloud account first. Nothing was changed.")
        case .invalidServerURL(let text): return tr("“%@” is not a Vocab server's address (https://HOST[:PORT]); put no user or password in it.", text)
        case .plainHTTPBeyondThisMachine(let text):
            return tr("%@ would send this device's secret over the network unencrypted: use https:// (plain http:// only to this machine).", text)
        case .unexpectedAnswer(let server, let detail):
            return tr("The Vocab server %@ answered something this Vocab does not understand (%@): is it the same version? Nothing was changed.", server, detail)
        case .unreachable(let server, let detail): return tr("Cannot reach the cloud server %@ (%@). Nothing was changed.", server, detail)
        case .accessDenied(let server, let detail): return tr("The cloud server %@ refused access (%@). Check the user and password.", server, detail)
        case .databaseLoginRetired(let server, let user):
            return tr("This device signed in to the cloud's database %@ directly, which the cloud no longer allows: devices sync through a Vocab server. Sign in again as %@ at the Vocab server's https:// address; nothing local is lost.", server, user)
        case .deviceSignedOut(let server):
            return tr("This device was signed out of its account on %@ (from another device or by the administrator). Nothing was changed; sign in again with the account's password.", server)
        case .timedOut(let server, let seconds):
            return tr("The cloud server %@ did not answer within %d s (it may be busy or stuck). Nothing was lost.", server, seconds)
        case .boundToAnotherAccount(let bound, let loggedIn, _):
            return tr("This data folder syncs with %@, but you are logged in as %@. Nothing was sent. Log in to %@ again to sync it.",
                      bound, loggedIn, bound)
        case .cancelled: return tr("Cancelled.")
        default: return nil
        }
    }

    private func importing(_ error: ImportError) -> String? {
        switch error {
        case .invalidLine(let line, let reason): return tr("Line %d: %@. Nothing was imported.", line, reason)
        case .emptyFile: return tr("The file is empty: nothing to import.")
        case .cancelled: return tr("Import cancelled; nothing was imported.")
        case .noHeader(let fields):
            return tr("The first line names no column and has %d fields: add a header line naming the columns.", fields)
        default: return nil
        }
    }

    private func backup(_ error: BackupError) -> String? {
        switch error {
        case .noBackups: return tr("There are no backups yet.")
        case .cannotWrite(let folder, let reason): return tr("Cannot write a backup into %@: %@. The store was not changed.", folder, reason)
        default: return nil
        }
    }
}
