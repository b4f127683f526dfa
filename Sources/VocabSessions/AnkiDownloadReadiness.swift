import Dispatch
import Synchronization
import VocabAnki
import VocabCore
import VocabStore

/// Keeps a server of one learner ready for an Anki app's full download, as Anki's own server
/// keeps its collection file: whenever the store has been quiet for `settle` seconds after
/// the server started or after a change, what changed is mirrored into the kept collection (on the
/// writer, as a sync's `meta` does) and the file the next download sends is made in `folder`
/// (`AnkiDownloadFile`: written from a reader, the learner's writes never wait for it, and
/// compressed). All of it on a queue of its own, off every request; a download finds its file
/// ready and only reads it.
public final class AnkiDownloadReadiness: Sendable {
    private let pool: LibraryPool
    private let account: String
    private let folder: String
    private let clock: any SessionClock
    private let settle: Double
    private let queue = DispatchQueue(label: "vocab.anki-download", qos: .utility)
    /// Where what an app's call left is done (`AnkiDeferral`), apart from the file's runs.
    private let settleQueue = DispatchQueue(label: "vocab.anki-settle", qos: .userInitiated)
    private let state = Mutex<(started: Bool, queued: Bool, lastChange: DispatchTime, observation: ObservationToken?)>((false, false, .now(), nil))
    private let failed = Mutex<@Sendable (Error) -> Void>({ _ in })
    private let lastAppCall = Mutex<DispatchTime>(.now())

    /// The folder beside the store of `pool` where its download file is kept (`anki-download`).
    public static func folder(of pool: LibraryPool) -> String {
        FilePath.folder(of: pool.path) + "/anki-download"
    }

    /// Does nothing until started: `changed` is a no-op before.
    public init(pool: LibraryPool, account: String, folder: String, clock: any SessionClock = SystemClock(), settle: Double = 30) {
        self.pool = pool
        self.account = account
        self.folder = folder
        self.clock = clock
        self.settle = settle
    }

    /// How an app's sync end and full upload are answered at once, the rest done here after
    /// (`settleSoon`).
    public var deferral: AnkiDeferral {
        AnkiDeferral(uploadFolder: AnkiDeferral.uploadFolder(of: pool)) { [weak self] in self?.settleSoon() }
    }

    /// Starts listening to the store's commits, and queues a first run for when the store has
    /// been quiet for `settle` seconds (a first mirror of a large store holds the writer for
    /// seconds: not while the learner is writing). What a stopped server left is done at once.
    /// `failed` hears a run's error (the folder could not be written, say); the next change
    /// tries again.
    public func start(failed: @escaping @Sendable (Error) -> Void = { _ in }) {
        self.failed.withLock { $0 = failed }
        let token = pool.observe { [weak self] _ in self?.changed() }
        state.withLock { state in
            state.observation = token
            state.started = true
        }
        settleSoon()
        let pool = self.pool, deferral = self.deferral
        settleQueue.async { try? AnkiCollections.removeStrayUploads(pool, deferral: deferral) }
        changed()
    }

    /// Does what an app's call left (a sync's changes into the words, an upload taken), on a
    /// queue of its own, once the apps' calls have been quiet for `appQuiet` seconds: an app's
    /// next call (another app's sync right after this one's) does not wait for it.
    public func settleSoon() {
        settle(after: Self.appQuiet)
    }

    /// How long the apps' calls are quiet before what they left is done.
    static let appQuiet = 0.1

    /// Notes an app's call beginning (what calls leave waits until they are quiet).
    public func heardFromApp() {
        lastAppCall.withLock { $0 = .now() }
    }

    /// Does a sync's reflect left past its answer now, on the caller's thread (a server about to
    /// stop: its words are the store's when another front end opens it). An upload left is taken
    /// at the next start (a large one takes seconds).
    public func reflectLeftNow() throws {
        try pool.write { library in try AnkiCollections.reflectLeft(library.store, account: account) }
    }

    private func settle(after seconds: Double) {
        settleQueue.asyncAfter(deadline: .now() + seconds) { [weak self] in
            guard let self else { return }
            let quietAt = self.lastAppCall.withLock { $0 } + Self.appQuiet
            if quietAt > .now() {
                self.settle(after: Double(quietAt.uptimeNanoseconds - DispatchTime.now().uptimeNanoseconds) / 1e9)
                return
            }
            do { try AnkiCollections.settle(self.pool, account: self.account, deferral: self.deferral) } catch {
                self.failed.withLock { $0 }(error)
            }
        }
    }

    /// Notes a change (the store's, or an app's call: a download moves the collection's number,
    /// a sync may change only objects Vocab has no place for): once started, a run follows when
    /// the store has been quiet for `settle` seconds.
    public func changed() {
        guard state.withLock({ state in
            state.lastChange = .now()
            return state.started
        }) else { return }
        queueRun(after: settle)
    }

    private func queueRun(after seconds: Double) {
        guard state.withLock({ state in defer { state.queued = true }; return !state.queued }) else { return }
        queue.asyncAfter(deadline: .now() + seconds) { [weak self] in
            guard let self else { return }
            let quietUntil = self.state.withLock { state -> DispatchTime? in
                state.queued = false
                let quiet = state.lastChange + self.settle
                return quiet > .now() ? quiet : nil
            }
            if let quietUntil {
                self.queueRun(after: Double(quietUntil.uptimeNanoseconds - DispatchTime.now().uptimeNanoseconds) / 1e9)
                return
            }
            do { try self.prepareNow() } catch { self.failed.withLock { $0 }(error) }
        }
    }

    /// One run, on the caller's thread: the changes mirrored, and the next download's file
    /// made unless the folder holds it. Returns whether a file was made.
    @discardableResult
    public func prepareNow() throws -> Bool {
        let folder = self.folder
        let work = try AnkiCollections.kept(pool, account: account, now: clock.now(), downloadFolder: folder, deferral: deferral) {
            try $0.planNextDownload()
        }
        guard work != .none else { return false }
        return try pool.read { library in try AnkiDownloadFile.carryOut(work, reader: library.store, in: folder) }
    }
}
