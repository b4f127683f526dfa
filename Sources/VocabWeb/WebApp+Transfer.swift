import FoundationEssentials
import Synchronization
import VocabCloudAPI
import VocabCore
import VocabSessions
import VocabSystem
import VocabWording
#if canImport(Glibc)
import Glibc
#endif

/// Import and export: a file uploaded (CSV, TSV, JSON lines, text, Excel, Anki) is imported on a
/// thread of its own while the page asks how far it got (and may cancel it); an export is a
/// download. The upload is kept in the server's private folder under a name made here, and
/// removed when the import ends.
extension WebApp {
    /// `POST /api/imports?name=FILE&format=F&book=ID&skipInvalid=1`, the file as the body.
    /// `name` only tells the format by its extension; it never becomes a path.
    func startImport(_ request: HTTPRequest, device: String) throws -> ImportStarted {
        guard !request.body.isEmpty || request.bodyFile.map(ScratchFolder.isNonEmptyFile) == true else {
            throw Refusal.emptyFile
        }
        let format: WordFileFormat
        do {
            guard let found = try TransferService.format(named: request.query["format"], fileName: request.query["name"] ?? "") else {
                throw ImportError.unknownFormat(request.query["format"] ?? "")
            }
            format = found
        } catch let error as UserFacingError {
            throw WebProblem(status: 422, cause: error, field: "format")
        }
        let book = try request.query["book"].map { ImportBook.id(try uuid($0)) }
        let skipInvalid = request.query["skipInvalid"] == "1"
        guard let job = imports.start(device: device) else {
            throw Refusal.importsRunning
        }
        let path: String
        do {
            let suffix = "." + (format == .apkg ? "apkg" : format.rawValue)
            path = try request.bodyFile.map { try scratch.adopt($0, suffix: suffix) } ?? scratch.write(request.body, suffix: suffix)
        } catch {
            job.state.withLock { $0 = .failed(WebProblem(.fileNotKept)) }
            throw error
        }
        let pool = self.pool, now = clock.now(), policy = backups
        let uploadName = String((request.query["name"] ?? "").split(separator: "/").last?.prefix(120) ?? "upload.\(format.rawValue)")
        let started = WebImports.workers.submit(key: pool.path) {
            defer { unlink(path) }
            let state: WebImports.State
            do {
                let outcome = try pool.write { library in
                    try TransferService.importFile(path, format: format, into: library, defaultBook: book, backups: policy,
                                                   skipInvalid: skipInvalid, now: now, progress: { progress in
                        let rows: Int
                        switch progress {
                        case .rows(let count): rows = count
                        case .reviews(let done, _): rows = done
                        }
                        job.state.withLock { $0 = .running(rows: rows, share: progress.share) }
                    }, isCancelled: { job.cancelled.load(ordering: .relaxed) })
                }
                state = .done(Self.outcome(outcome))
            } catch {
                if job.cancelled.load(ordering: .relaxed) {
                    state = .cancelled
                } else if let error = error as? UserFacingError {
                    let named = UploadFailure(underlying: error, keptAs: path, name: uploadName)
                    state = .failed(WebProblem(status: error.category == .userInput ? 422 : 500, cause: named))
                } else {
                    state = .failed(WebProblem(.importFailed))
                }
            }
            job.state.withLock { $0 = state }
        }
        if !started {
            unlink(path)
            job.state.withLock { $0 = .failed(WebProblem(.tooBusyToImport)) }
        }
        return ImportStarted(id: job.id.lowercaseText)
    }

    func importState(_ id: UUID, device: String, wording: Wording?) throws -> ImportStateAnswer {
        guard let job = imports.job(id, device: device) else { throw Refusal.noSuchImport }
        switch job.state.withLock({ $0 }) {
        case .running(let rows, let share): return ImportStateAnswer(state: "running", rows: rows, share: share)
        case .done(let outcome): return ImportStateAnswer(state: "done", outcome: outcome)
        case .failed(let problem):
            return ImportStateAnswer(state: "failed", status: problem.status, error: wording?.message(for: problem.cause) ?? problem.message)
        case .cancelled: return ImportStateAnswer(state: "cancelled")
        }
    }

    /// Asks the import to stop; it stops at its next check and changes nothing (all or nothing).
    func cancelImport(_ id: UUID, device: String) throws -> ImportStateAnswer {
        guard let job = imports.job(id, device: device) else { throw Refusal.noSuchImport }
        job.cancelled.store(true, ordering: .relaxed)
        return ImportStateAnswer(state: job.isRunning ? "cancelling" : "finished")
    }

    private static func outcome(_ outcome: ImportOutcome) -> ImportOutcomeRow {
        ImportOutcomeRow(added: outcome.summary.added, updated: outcome.summary.updated, unchanged: outcome.summary.unchanged,
                         createdBooks: outcome.summary.createdBooks, reviewsAdded: outcome.reviewsAdded,
                         rejected: Array(outcome.summary.rejected.prefix(20)),
                         rejectedCount: outcome.summary.rejected.count, notes: outcome.notes)
    }

    /// `GET /api/books/ID/export?format=csv|tsv|jsonl|text|apkg`: the book as a file to download.
    func export(bookId: UUID, format name: String) throws -> HTTPResponse {
        guard let format = WordFileFormat(rawValue: name.lowercased()), format != .xlsx else {
            throw Refusal.notAnExportFormat
        }
        let suffix = format == .text ? "txt" : format.rawValue
        let path = scratch.newName(suffix: "." + suffix)
        defer { unlink(path) }
        let book = try pool.read { library -> Book in
            guard let book = try library.book(id: bookId) else { throw VocabError.bookNotFound(bookId.lowercaseText) }
            try TransferService.exportFile(path, from: library, bookId: bookId, format: format)
            return book
        }
        guard let data = FileManager.default.contents(atPath: path) else { throw Refusal.exportUnreadable }
        // The book's name for the file, kept to characters every system takes in a file name.
        let safe = String(book.name.unicodeScalars.filter { $0.properties.isAlphabetic || $0.properties.numericType != nil || $0 == "-" || $0 == "_" }.prefix(60))
        let fileName = (safe.isEmpty ? "vocab" : safe) + "." + suffix
        let asciiName = String(safe.unicodeScalars.filter(\.isASCII).map(Character.init))
        let ascii = (asciiName.isEmpty ? "vocab" : asciiName) + "." + suffix
        let encoded = PercentEncoding.encodeAllButAlphanumerics(fileName)
        return HTTPResponse(status: 200, headers: [("Content-Type", format == .apkg ? "application/octet-stream" : "text/plain; charset=utf-8"),
                                                   ("Content-Disposition", "attachment; filename=\"\(ascii)\"; filename*=UTF-8''\(encoded)"),
                                                   ("Cache-Control", "no-store")],
                            body: [UInt8](data))
    }
}

/// A failed import of an upload, naming the file as the page sent it rather than where the
/// server kept it.
struct UploadFailure: UserFacingError {
    let underlying: UserFacingError
    let keptAs: String
    let name: String

    var category: ErrorCategory { underlying.category }
    var remedy: Remedy? { underlying.remedy }
    var sentence: Sentence { underlying.sentence.replacingText(keptAs, with: name) }
}
