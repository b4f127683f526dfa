import XCTest
import VocabCatalog
import VocabCloudAPI
import VocabAnki
import VocabArchives
import VocabCore
import VocabDictionary
@testable import VocabStore
import VocabSystem
@testable import VocabSessions
import VocabWording

/// An error says what went wrong once, as a sentence: the terminal's English is that sentence,
/// the window and the pages translate it through the catalogue (its values too: a field's
/// label, a cause inside a failure), and each front end adds only what to do next.
final class ErrorWordingTests: XCTestCase {
    private let english = Wording(catalog: Catalog())
    private let korean = Wording(catalog: Catalog.load(language: "ko", environment: [:], executable: "/nonexistent/vocab"))

    func testTheEnglishSentenceIsTheMessage() {
        XCTAssertEqual(VocabError.bookNotFound("TOEIC").message, "No book named \"TOEIC\".")
        XCTAssertEqual(VocabError.emptyField(field: "definition").message, "The definition must not be empty.")
        XCTAssertEqual(GameSetupError.emptyBooks(["A", "B"]).message, "Books \"A\", \"B\" has no words yet.")
        XCTAssertEqual(ImportError.recordTooLong(line: 3, limit: 8 << 20).message,
                       "Line 3 is longer than 8 MiB: this is not a word list. Nothing was imported.")
        XCTAssertEqual(CloudError.shareRefused(.bookTooLarge).sentence, ShareRefusal.bookTooLarge.sentence)
    }

    func testTheWindowSaysTheSameSentenceInItsLabelsAndAddsWhatToDo() {
        XCTAssertEqual(english.message(for: VocabError.emptyField(field: "definition")), "Definition must not be empty.")
        XCTAssertEqual(english.message(for: GameSetupError.noBooks), "You have no books yet. Make one on the Books page.")
        XCTAssertEqual(english.message(for: VocabError.duplicateWord("happy", book: "TOEIC")), "The word \"happy\" is already in book \"TOEIC\".")
    }

    func testKoreanTranslatesTheSentenceItsValuesAndTheCauseInside() {
        XCTAssertEqual(korean.message(for: VocabError.emptyField(field: "definition")), "뜻 칸을 비워 둘 수 없습니다.")
        let stopped = korean.message(for: SyncFailure(underlying: CloudError.timedOut(server: "cloud.example", seconds: 7)))
        XCTAssertTrue(stopped.hasPrefix("동기화가 멈췄습니다: 클라우드 서버 cloud.example"), stopped)
        XCTAssertTrue(stopped.contains("7초"), stopped)
        XCTAssertTrue(stopped.hasSuffix(korean.tr("Sync again to go on.")), stopped)
        XCTAssertFalse(stopped.contains("%@"), stopped)
    }

    func testARemedyTheLayerNamesIsWordedInTheWindowsTerms() {
        XCTAssertEqual(english.message(for: DictionaryError.espeakMissing),
                       "espeak-ng is not installed, so there is no pronunciation or speech. Install the espeak-ng package.")
        XCTAssertEqual(korean.message(for: DictionaryError.wordNetMissing(folder: "/usr/share/wordnet")),
                       "WordNet 데이터 파일이 /usr/share/wordnet에 없습니다. wordnet-base 패키지를 설치하세요.")
        let zip = korean.message(for: ArchiveError.missingEntry(path: "a.xlsx", entry: "xl/workbook.xml", kind: Sentence("an .xlsx workbook")))
        XCTAssertTrue(zip.contains(".xlsx 통합 문서"), zip)
    }

    /// Every sentence of the families the window and the pages show has its Korean: a new case
    /// whose sentence is not in the catalogue fails here (and in check_translations.py).
    func testEverySentenceOfTheErrorsShownHasItsKorean() {
        let vocab: [VocabError] = [
            .emptyField(field: "word"), .fieldTooLong(field: "word", limit: 3), .invalidCharacters(field: "word"),
            .bookNotFound("b"), .wordNotFound("w", book: "b"), .wordNotFound("w", book: nil), .ambiguousWord("w", books: ["a", "b"]),
            .duplicateBookName("b"), .duplicateWord("w", book: "b"), .imageTooLarge(bytes: 9, limit: 1), .unsupportedImage, .noCoverImage(book: "b"),
            .invalidDate("x"), .invalidBoolean("x"), .retentionOutOfRange(2, 0.7...0.97), .nothingToLookUp, .bookIsShared("b"),
            .daysOutOfRange(0, 1...3_650),
        ]
        let game: [GameSetupError] = [.noBooks, .emptyBooks(["b"]), .allMemorized(["b"]), .noDefinitions(mode: .choice),
                                      .tooFewMeanings(found: 1, mode: .choice), .countOutOfRange(0, 1...100)]
        let importing: [ImportError] = [.invalidLine(line: 1, reason: "r"), .missingHeader(found: ["x"]), .noBook(line: 1),
                                        .unknownFormat("f"), .emptyFile, .recordTooLong(line: 1, limit: 1 << 20), .noHeader(fields: 2), .cancelled]
        let backup: [BackupError] = [.cannotWrite(folder: "f", reason: "r"), .checkFailed(detail: "d"), .notABackup(path: "p", reason: "r"),
                                     .noBackups(folder: "f"), .noSuchBackup("x")]
        let cloud: [CloudError] = [
            .notLoggedIn, .unreachable(server: "s", detail: "d"), .accessDenied(server: "s", detail: "d"), .schemaMissing(server: "s"),
            .serverError("d"), .invalidURL("u"), .invalidUserName("n"), .emptyPassword, .cancelled, .timedOut(server: "s", seconds: 1),
            .schemaTooOld(server: "s", found: 1, needed: 2), .schemaTooNew(server: "s", found: 3, known: 2), .quotaExceeded(.records(most: 10, wouldBe: 11)), .quotaExceeded(.devicesSignedIn(most: 10)),
            .countsDisagree(detail: "d"), .boundToAnotherAccount(bound: "a", loggedIn: "b", user: "u"),
            .unreadableLogin(path: "p", reason: "r"), .lockNotAvailable("d"), .blocked(by: []),
            .blocked(by: [BlockingSession(pid: 1, user: "u", state: "idle", seconds: 2)]), .deviceSignedOut(server: "s"),
            .databaseLoginRetired(server: "s", user: "u"), .administratorNeeded("u"), .libpqMissing, .libcurlMissing,
            .invalidServerURL("u"), .plainHTTPBeyondThisMachine("u"), .unexpectedAnswer(server: "s", detail: "d"),
        ]
        let shares: [ShareRefusal] = [.noSuchShare, .notFollowing, .ownBook, .bookNotSynced, .bookTooLarge, .tooManyShares,
                                      .tooManyFollows, .listingTooSoon, .shareEnded, .sharedBookFull]
        let files = [FileFailure.Operation.read, .write].flatMap { operation in
            [FileFailure.Reason.missing, .folder, .denied, .system("Input/output error")].map { FileFailure(operation, "f", $0) }
        }
        let dictionary: [DictionaryError] = [
            .wordNetMissing(folder: "f"), .wordNetDamaged(file: "f"), .notFound("w"), .emptyWord, .espeakMissing, .speechFailed("r"),
            .serverUnreachable(host: "h", port: 1, reason: "r"), .serverTimeout(host: "h", port: 1), .serverProtocol("d"),
            .invalidServer("s"), .invalidTemplate("t"),
        ]
        let anki: [AnkiPackageError] = [.unknownVersion(path: "p", version: 9), .noCollection(path: "p"), .notACollection(path: "p", reason: "r"),
                                        .damaged(path: "p", reason: "r"), .unsafeMediaName(path: "p", name: "n"), .cannotUnpack(reason: "r"), .cannotWrite(reason: "r"),
                                        .unknownField(name: "n", known: ["a"]), .nothingToExport]
        let archives: [ArchiveError] = [.notAZip(path: "p", reason: "r", kind: Sentence("an .xlsx workbook")),
                                        .missingEntry(path: "p", entry: "e", kind: Sentence("an Anki package")),
                                        .tooBig(path: "p", limitMiB: 1), .unsafeXML(path: "p", entry: "e", reason: "r"), .malformed(path: "p", reason: "r")]
        let store: [StoreError] = [.cannotCreateFolder(path: "p", reason: "r"), .cannotOpen(path: "p", reason: "r"), .readOnly(path: "p"),
                                   .notAVocabDatabase(path: "p"), .newerSchema(path: "p", found: 9, supported: 8), .corrupt(path: "p", detail: "d"),
                                   .busy(path: "p"), .malformedRow(table: "t", column: "c"), .sqlite(SQLiteError(code: 1, message: "m"))]
        var others: [UserFacingError] = [ZipWriteError(path: "p", reason: "r"), WorkbookNotWritten(), ExportCancelled(),
                                         SharingInputError.notACode("c"), SharingInputError.notFollowed("b"),
                                         PathError.noDataFolder, PathError.unreadableConfig(path: "p")]
        others.append(PathError.invalidSetting(name: "dayStartHour", expected: Sentence("a whole hour from 0 to 23")))
        let syncs = [SyncFailure(underlying: CloudError.cancelled), SyncFailure(underlying: CloudError.notLoggedIn)]
        let refusals: [Refusal] = [
            .signInFirst, .signDeviceInFirst, .deviceSignedOut, .pairFirst, .wrongPassword, .wrongPairingCode, .pairedAlready,
            .signsInOtherwise(withAccounts: true), .signsInOtherwise(withAccounts: false), .crossSiteWrite, .writeHeaderMissing,
            .tooManyTries(seconds: 3), .tooManyRequestsAtOnce, .accountBusy, .busySigningIn, .importsRunning, .tooBusyToImport,
            .accountLimit(.records(most: 1, wouldBe: 2)), .accountLimit(.devicesThisHour(most: 30)), .cloudUnreachable, .cloudRefusedForm,
            .share(.noSuchShare), .noSuchPath("/x"), .methodNotAllowed("PUT"), .notAnId("x"), .noSuchDevice, .noSuchGame, .noSuchImport,
            .noCover, .notFollowedBook, .bodyNotJSONObject, .missingField("name"), .wrongKind("days"), .signInBodyMissing,
            .notAChangeNumber("after"), .notAGameMode, .notAGameAnswerForm, .notAPossibleAnswer, .notABookIdList, .tooManyReviews(most: 9),
            .reviewNotWellFormed, .notAnExportFormat, .emptyFile, .notADeviceMadeId, .requestTooLarge, .addressSendingTooMuch,
            .addressRequestingTooMuch, .bodyNotKept, .bodyNotRead, .serverBusy, .serverStopping, .noDictionary, .noSpeech, .speechFailed,
            .privateFolderUnusable("r"), .exportUnreadable, .fileNotKept, .importFailed, .somethingWentWrong,
            .ankiSyncVersion(10), .ankiSyncVersion(nil), .ankiBodyUnreadable, .ankiSyncNotStarted, .ankiChangesUnreadable, .noSuchBackup, .ankiUploadDamaged,
            .ankiMediaUnreadable, .ankiMediaTooLarge(mebibytes: 20), .ankiMediaGone,
        ]
        for refusal in refusals where [429, 503].contains(refusal.status) {
            XCTAssertNotNil(refusal.retryAfter, "\(refusal) is worth trying again: it says when")
        }
        // A case added to a family but not listed here fails: the lists are read against the enums' sources.
        assertListsEveryCase(vocab, of: "VocabError")
        assertListsEveryCase(game, of: "GameSetupError")
        assertListsEveryCase(importing, of: "ImportError")
        assertListsEveryCase(backup, of: "BackupError")
        assertListsEveryCase(cloud, of: "CloudError", except: ["shareRefused"])  // listed as `shares` below
        assertListsEveryCase(shares, of: "ShareRefusal")
        assertListsEveryCase(dictionary, of: "DictionaryError")
        assertListsEveryCase(anki, of: "AnkiPackageError")
        assertListsEveryCase(archives, of: "ArchiveError")
        assertListsEveryCase(store, of: "StoreError")
        assertListsEveryCase(refusals, of: "Refusal")
        var errors: [UserFacingError] = vocab
        errors += game as [UserFacingError]
        errors += importing as [UserFacingError]
        errors += backup as [UserFacingError]
        errors += cloud as [UserFacingError]
        errors += shares.map { CloudError.shareRefused($0) } as [UserFacingError]
        errors += syncs as [UserFacingError]
        errors += files as [UserFacingError]
        errors += dictionary as [UserFacingError]
        errors += anki as [UserFacingError]
        errors += archives as [UserFacingError]
        errors += store as [UserFacingError]
        errors += others
        errors += refusals as [UserFacingError]
        for error in errors {
            XCTAssertNotNil(korean.catalog.entries[error.sentence.format], "no Korean for \(error.sentence.format)")
            XCTAssertEqual(error.sentence.format.components(separatedBy: "%@").count - 1, error.sentence.values.count, error.message)
            for case .sentence(let inner) in error.sentence.values {
                XCTAssertNotNil(korean.catalog.entries[inner.format], "no Korean for \(inner.format) in \(error.message)")
            }
        }
    }

    /// Fails when `enumName`'s declaration in `Sources/` has a case none of `values` is.
    private func assertListsEveryCase<T>(_ values: [T], of enumName: String, except: Set<String> = [],
                                         file: StaticString = #filePath, line: UInt = #line) {
        let listed = Set(values.map { String(String(describing: $0).prefix { $0 != "(" }) })
        guard let declared = Self.caseNames(of: enumName) else {
            return XCTFail("no declaration of enum \(enumName) under Sources/", file: file, line: line)
        }
        XCTAssertEqual(declared.subtracting(except).subtracting(listed), [], "cases of \(enumName) this test does not list",
                       file: file, line: line)
    }

    /// The names of the cases an enum declares at its own level, read from its source.
    static func caseNames(of enumName: String) -> Set<String>? {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources")
        guard let files = FileManager.default.enumerator(atPath: sources.path) else { return nil }
        for case let path as String in files where path.hasSuffix(".swift") {
            guard let text = try? String(contentsOfFile: sources.appendingPathComponent(path).path, encoding: .utf8),
                  let pattern = try? Regex("enum \(enumName)\\b[^{]*\\{"), let start = text.firstMatch(of: pattern) else { continue }
            var depth = 1, names = Set<String>(), lineStart = true, index = start.range.upperBound
            var current = ""
            while index < text.endIndex, depth > 0 {
                let character = text[index]
                if character == "{" { depth += 1 } else if character == "}" { depth -= 1 }
                if character == "\n" {
                    let trimmed = current.trimmingCharacters(in: .whitespaces)
                    if depth == 1, lineStart, trimmed.hasPrefix("case ") || trimmed.hasPrefix("indirect case ") {
                        let list = trimmed.replacingOccurrences(of: "indirect ", with: "").dropFirst(5)
                        var parens = 0, name = "", reading = true
                        for c in list {
                            if c == "(" { parens += 1; reading = false } else if c == ")" { parens -= 1 }
                            else if c == ",", parens == 0 { names.insert(name); name = ""; reading = true }
                            else if reading, c.isLetter || c.isNumber || c == "_" { name.append(c) }
                            else if reading, !name.isEmpty { reading = false }
                        }
                        if !name.isEmpty { names.insert(name) }
                    }
                    current = ""
                    lineStart = depth == 1
                } else {
                    current.append(character)
                }
                index = text.index(after: index)
            }
            return names
        }
        return nil
    }
}
