import VocabCore

/// Every refusal a Vocab server gives a page or a device, said once: each case carries its
/// `Sentence` (the catalogue's key, so the window and the page say it in Korean too), and its
/// HTTP status and Retry-After come from one switch each (`status`, `retryAfter`). The layers
/// that refuse (the cloud's session layer, the web app) throw these values; the HTTP front end
/// only writes them down.
public enum Refusal: UserFacingError, Equatable, Sendable {
    // Who is asking.
    /// A request that names no signed-in device of a cloud account.
    case signInFirst
    /// A device's request without its key.
    case signDeviceInFirst
    /// The device's key was signed out (here, on another server, or by another of its devices).
    case deviceSignedOut
    /// A page of a learner's own server that was not paired yet.
    case pairFirst
    case wrongPassword
    case wrongPairingCode
    case pairedAlready
    /// This server signs in with cloud accounts (`true`) or pairs with a code (`false`).
    case signsInOtherwise(withAccounts: Bool)
    /// A write a browser was made to send from another site, or without the page's header.
    case crossSiteWrite
    case writeHeaderMissing

    // Limits: this learner, or this address, waits; nobody else does.
    /// Too many failed tries from here: wait `seconds`.
    case tooManyTries(seconds: Int)
    /// The account has `requestsPerLearner` requests in flight already.
    case tooManyRequestsAtOnce
    /// The account's own lock in the cloud is held by another of its requests.
    case accountBusy
    /// Every password check is taken.
    case busySigningIn
    /// Two imports of this store are running.
    case importsRunning
    /// Every worker that imports is taken.
    case tooBusyToImport
    /// One of the account's caps (devices, records, bytes, a batch's size).
    case accountLimit(CloudLimit)

    // The cloud.
    /// The cloud cannot be reached, or did not answer in time.
    case cloudUnreachable
    /// The cloud refused what was sent as not in its form.
    case cloudRefusedForm
    /// The cloud refused a request about shared books.
    case share(ShareRefusal)

    // Not there.
    /// No route, page or file answers this method and path.
    case noSuchPath(String)
    /// The path is a route, with another method.
    case methodNotAllowed(String)
    /// A part of the path that should be an id Vocab made is not one.
    case notAnId(String)
    case noSuchDevice
    case noSuchGame
    case noSuchImport
    case noCover
    case notFollowedBook

    // What was sent.
    case bodyNotJSONObject
    case missingField(String)
    case wrongKind(String)
    case signInBodyMissing
    /// A query's change number (`after`, `token`) is missing or below 0.
    case notAChangeNumber(String)
    case notAGameMode
    case notAGameAnswerForm
    case notAPossibleAnswer
    case notABookIdList
    case tooManyReviews(most: Int)
    case reviewNotWellFormed
    case notAnExportFormat
    case emptyFile
    case notADeviceMadeId

    // The door: what one address may hold, and a server stopping or full.
    case requestTooLarge
    case addressSendingTooMuch
    case addressRequestingTooMuch
    case bodyNotKept
    case bodyNotRead
    case serverBusy
    case serverStopping

    // This server.
    case noDictionary
    case noSpeech
    case speechFailed
    case privateFolderUnusable(String)
    case exportUnreadable
    case fileNotKept
    case importFailed
    case somethingWentWrong

    // Anki's apps (their sync protocol).
    /// A request of another version of Anki's sync protocol (nil: not the protocol's header).
    case ankiSyncVersion(Int?)
    /// A body that is not zstd, or ends mid-frame.
    case ankiBodyUnreadable
    /// A call of a normal sync with none under way (or another app's under way).
    case ankiSyncNotStarted
    /// A call's body that is not what the call carries (its JSON of another shape).
    case ankiChangesUnreadable
    /// A backup of the account asked for that the cloud does not keep (another account's, or
    /// gone since: only the newest are kept).
    case noSuchBackup
    /// An app's whole collection that is not a sound collection.
    case ankiUploadDamaged
    /// Media files an app sent that are not what Anki's media sync carries (a zip of stored
    /// entries and a list of their names), or names no file system should take.
    case ankiMediaUnreadable
    /// A media file larger than the server takes (its bound in MiB).
    case ankiMediaTooLarge(mebibytes: Int)
    /// A media file asked for that is no longer kept (deleted since the app asked what changed).
    case ankiMediaGone

    public var category: ErrorCategory {
        switch self {
        case .cloudUnreachable, .accountBusy, .busySigningIn: return .cloudUnavailable
        default: return .userInput
        }
    }

    public var sentence: Sentence {
        switch self {
        case .signInFirst: return Sentence("Sign in with your cloud account.")
        case .signDeviceInFirst: return Sentence("Sign this device in first.")
        case .deviceSignedOut: return Sentence("This device was signed out: sign in again with your cloud account.")
        case .pairFirst: return Sentence("Pair this device first, with the code the server shows.")
        case .wrongPassword: return Sentence("The user name or the password is wrong.")
        case .wrongPairingCode: return Sentence("That pairing code is not the one the server shows.")
        case .pairedAlready: return Sentence("This device is paired already.")
        case .signsInOtherwise(let withAccounts):
            return withAccounts ? Sentence("This server signs in with a cloud account, not a pairing code.")
                                : Sentence("This server pairs devices with a code; it has no accounts.")
        case .crossSiteWrite: return Sentence("A write from another site is refused.")
        case .writeHeaderMissing: return Sentence("Writes need the X-Vocab-Request header.")
        case .tooManyTries(let seconds): return Sentence("Too many tries: try again in %@ s.", .number(seconds))
        case .tooManyRequestsAtOnce: return Sentence("Too many requests of this account at once: try again in a moment.")
        case .accountBusy: return Sentence("The account is busy with another request: try again in a moment.")
        case .busySigningIn: return Sentence("The server is busy signing others in: try again in a moment.")
        case .importsRunning: return Sentence("Two imports are running already: try again when one has finished.")
        case .tooBusyToImport: return Sentence("The server is too busy to import now: try again in a moment.")
        case .accountLimit(let limit): return CloudError.quotaExceeded(limit).sentence
        case .cloudUnreachable: return Sentence("The cloud cannot be reached now: try again in a moment.")
        case .cloudRefusedForm: return Sentence("The cloud refused what was sent: it is not in the form the cloud keeps.")
        case .share(let refusal): return refusal.sentence
        case .noSuchPath(let path): return Sentence("There is no %@.", .text(path))
        case .methodNotAllowed(let method): return Sentence("%@ is not allowed here.", .text(method))
        case .notAnId(let text): return Sentence("\"%@\" is not an id Vocab made.", .text(String(text.prefix(40))))
        case .noSuchDevice: return Sentence("No device of this account has that id.")
        case .noSuchGame: return Sentence("That game is over or was never started here.")
        case .noSuchImport: return Sentence("There is no such import.")
        case .noCover: return Sentence("This book has no cover.")
        case .notFollowedBook: return Sentence("That is not a book you follow.")
        case .bodyNotJSONObject: return Sentence("The request body must be a JSON object.")
        case .missingField(let field): return Sentence("\"%@\" is missing.", .text(field))
        case .wrongKind(let field): return Sentence("\"%@\" is not of the kind it must be.", .text(field))
        case .signInBodyMissing: return Sentence("Send the user name and the password.")
        case .notAChangeNumber(let name): return Sentence("\"%@\" must be a change number, 0 or more.", .text(name))
        case .notAGameMode: return Sentence("The mode must be choice, reverse, spelling or flashcard.")
        case .notAGameAnswerForm: return Sentence("An answer is a choice, typed text or a rating.")
        case .notAPossibleAnswer: return Sentence("That is not one of the possible answers.")
        case .notABookIdList: return Sentence("\"books\" must be a list of book ids.")
        case .tooManyReviews(let most): return Sentence("\"reviews\" must be a list of at most %@ reviews.", .number(most))
        case .reviewNotWellFormed:
            return Sentence("Each review needs an id, a wordId, a rating and the time it was made (at most 5 minutes ahead of this server's clock).")
        case .notAnExportFormat: return Sentence("Export as csv, tsv, jsonl, text or apkg.")
        case .emptyFile: return Sentence("The file is empty.")
        case .notADeviceMadeId: return Sentence("\"id\" must be an id the device made (a UUID).")
        case .requestTooLarge: return Sentence("The request is too large.")
        case .addressSendingTooMuch: return Sentence("Too much is being sent from your address at once: try again in a moment.")
        case .addressRequestingTooMuch: return Sentence("Too many requests from your address at once: try again in a moment.")
        case .bodyNotKept: return Sentence("The server cannot keep what was sent now: try again in a moment.")
        case .bodyNotRead: return Sentence("The server cannot read what was sent now: try again in a moment.")
        case .serverBusy: return Sentence("The server is busy: try again in a moment.")
        case .serverStopping: return Sentence("The server is stopping: try again in a moment.")
        case .noDictionary: return Sentence("This server has no dictionary.")
        case .noSpeech: return Sentence("This server cannot speak: espeak-ng is not installed.")
        case .speechFailed: return Sentence("The word could not be spoken.")
        case .privateFolderUnusable(let reason): return Sentence("The server cannot use its private folder: %@.", .text(reason))
        case .exportUnreadable: return Sentence("The export could not be read back.")
        case .fileNotKept: return Sentence("The server could not keep the file.")
        case .importFailed: return Sentence("The import failed; nothing was changed.")
        case .somethingWentWrong: return Sentence("Something went wrong on the server; nothing was changed.")
        case .ankiSyncVersion(let version?):
            return Sentence("This server speaks version 11 of Anki's sync protocol, not version %@.", .number(version))
        case .ankiSyncVersion(nil): return Sentence("This server speaks version 11 of Anki's sync protocol: update the Anki app.")
        case .ankiBodyUnreadable: return Sentence("The request body is not zstd-compressed, or it was cut short.")
        case .ankiSyncNotStarted: return Sentence("No sync is under way for this Anki app: sync again; nothing was changed.")
        case .ankiChangesUnreadable: return Sentence("The Anki app sent changes this server cannot read; nothing was changed.")
        case .noSuchBackup:
            return Sentence("This account keeps no backup of that id (only the newest are kept); nothing was changed.")
        case .ankiUploadDamaged:
            return Sentence("Your upload was corrupt. Please use Check Database, or restore from backup; nothing was changed.")
        case .ankiMediaUnreadable: return Sentence("The Anki app sent media files this server cannot read; nothing was changed.")
        case .ankiMediaTooLarge(let mebibytes):
            return Sentence("A media file is larger than this server takes (%@ MiB); nothing was changed.", .number(mebibytes))
        case .ankiMediaGone: return Sentence("A media file asked for is no longer kept: sync again.")
        }
    }

    /// The HTTP status it is answered with.
    public var status: Int {
        switch self {
        case .signInFirst, .signDeviceInFirst, .deviceSignedOut, .pairFirst: return 401
        case .wrongPassword, .wrongPairingCode, .crossSiteWrite, .writeHeaderMissing: return 403
        case .pairedAlready, .methodNotAllowed: return 405
        case .signsInOtherwise, .noSuchPath, .notAnId, .noSuchDevice, .noSuchGame, .noSuchImport, .noCover, .notFollowedBook, .noSuchBackup:
            return 404
        case .tooManyTries, .tooManyRequestsAtOnce, .accountBusy, .importsRunning, .addressSendingTooMuch, .addressRequestingTooMuch,
             .bodyNotKept, .bodyNotRead:
            return 429
        case .requestTooLarge: return 413
        case .serverBusy, .serverStopping: return 503
        case .accountLimit(let limit): return limit.isAboutDevices ? 429 : 507
        case .busySigningIn, .cloudUnreachable, .tooBusyToImport: return 503
        case .noDictionary, .noSpeech: return 501  // this server lacks it: asking again will not help
        case .ankiSyncVersion: return 501
        case .ankiBodyUnreadable, .ankiSyncNotStarted, .ankiChangesUnreadable, .ankiMediaUnreadable: return 400
        case .ankiMediaTooLarge: return 413
        case .ankiUploadDamaged: return 400
        case .ankiMediaGone: return 409
        case .cloudRefusedForm, .bodyNotJSONObject, .signInBodyMissing, .notAChangeNumber: return 400
        case .share(let refusal):
            switch refusal {
            case .noSuchShare, .notFollowing: return 404
            case .shareEnded: return 410
            case .ownBook, .bookNotSynced, .listingTooSoon: return 409
            case .bookTooLarge, .tooManyShares, .tooManyFollows, .sharedBookFull: return 422
            }
        case .missingField, .wrongKind, .notAGameMode, .notAGameAnswerForm, .notAPossibleAnswer, .notABookIdList, .tooManyReviews,
             .reviewNotWellFormed, .notAnExportFormat, .emptyFile, .notADeviceMadeId:
            return 422
        case .speechFailed, .privateFolderUnusable, .exportUnreadable, .fileNotKept, .importFailed, .somethingWentWrong: return 500
        }
    }

    /// Seconds before trying again is any use (a Retry-After header); nil: trying again as it is
    /// will not help. Every refusal a device retries (DESIGN.md §14) has one.
    public var retryAfter: Int? {
        switch self {
        case .tooManyTries(let seconds): return seconds
        case .tooManyRequestsAtOnce, .accountBusy, .addressSendingTooMuch, .addressRequestingTooMuch, .bodyNotKept, .bodyNotRead,
             .serverBusy, .serverStopping:
            return 1
        case .busySigningIn, .cloudUnreachable: return 2
        case .importsRunning, .tooBusyToImport: return 5
        case .accountLimit(.devicesThisHour): return 600
        default: return nil
        }
    }

    /// The field of the page's form it is about, when one.
    public var field: String? {
        switch self {
        case .wrongPassword: return "password"
        case .missingField(let field), .wrongKind(let field): return field
        case .notAGameMode: return "mode"
        case .notAGameAnswerForm, .notAPossibleAnswer: return "answer"
        case .notABookIdList: return "books"
        case .tooManyReviews, .reviewNotWellFormed: return "reviews"
        case .notAnExportFormat: return "format"
        case .emptyFile: return "file"
        case .notADeviceMadeId: return "id"
        default: return nil
        }
    }

    /// Its case in snake case (`too_many_tries`), as metrics count it: a bounded set, never a value.
    public var caseName: String { String(describing: self).prefix { $0 != "(" }.snakeCased }

    /// Whether the page should show the account's sign-in (a 401 of a cloud account).
    public var asksForAccountSignIn: Bool {
        switch self {
        case .signInFirst, .signDeviceInFirst, .deviceSignedOut: return true
        default: return false
        }
    }
}
