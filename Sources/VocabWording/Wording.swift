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

    /// An error in the window's words: what went wrong as the layer says it, in the catalogue's
    /// language (an error the catalogue has no sentence for shows the layer's plain English),
    /// then what to do next in a window's or a page's terms, where there is something to do.
    public func message(for error: Error) -> String {
        guard let error = error as? UserFacingError else { return "\(error)" }
        let said = sentence(error.sentence)
        return whatToDo(error).map { said + " " + $0 } ?? said
    }

    /// A layer's sentence in the catalogue's language, its values in this front end's words.
    public func sentence(_ sentence: Sentence) -> String {
        Sentence.fill(catalog.translate(sentence.format), sentence.values.map(value))
    }

    private func value(_ value: SentenceValue) -> String {
        switch value {
        case .field(let name): return field(name)
        case .books(let names): return names.map { "“\($0)”" }.joined(separator: ", ")
        case .sentence(let inner): return sentence(inner)
        case .text, .number, .bytes, .account: return value.english
        }
    }

    /// What to do next, in a window's or a page's terms; nil where the layer's sentence says
    /// it or there is nothing to do.
    private func whatToDo(_ error: UserFacingError) -> String? {
        switch error {
        case let error as GameSetupError:
            switch error {
            case .noBooks: return tr("Make one on the Books page.")
            case .emptyBooks: return tr("Add some on the Books page, or import a file.")
            case .allMemorized: return nil
            case .noDefinitions: return tr("Try Flashcard, or add definitions.")
            case .tooFewMeanings: return tr("Try Spelling.")
            case .countOutOfRange: return nil
            }
        case CloudError.notLoggedIn: return tr("Log in to your cloud account first.")
        case let error as SyncFailure:
            if case CloudError.cancelled? = error.underlying as? CloudError { return nil }
            return whatToDo(error.underlying) ?? tr("Sync again to go on.")
        default: return error.remedy.flatMap(remedy)
        }
    }

    /// A layer's remedy as a plain step; nil where the sentence already says it.
    private func remedy(_ remedy: Remedy) -> String? {
        switch remedy {
        case .installPackage(let package, _): return tr("Install the %@ package.", package)
        case .chooseWritableDataFolder: return tr("Keep your data in a folder you can write to.")
        case .restoreBackup: return nil
        }
    }
}
