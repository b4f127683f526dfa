import Foundation
import VocabCore
import VocabSessions

/// What every screen of the window shares: the store (a pool: the main thread reads through a
/// reader connection that never waits for a write; every write, and every read that can take
/// long at 100,000 words, goes to the worker), the clock, the dictionaries, the cloud, and the
/// one place that tells screens the data changed — the pool's commits at once, other
/// processes' when the file changes (no timer here).
@MainActor
final class AppModel {
    let paths: AppPaths
    let pool: LibraryPool
    let worker: StoreWorker
    let clock: SessionClock
    let dictionaries: DictionaryService
    let sync: SyncService?
    /// When the learner's study day starts (config.json's dayStartHour, the local time zone).
    let studyDay: StudyDay
    private var listeners: [@MainActor (StoreChange) -> Void] = []
    private var observation: ObservationToken?
    /// Search indexing and the automatic backup after changes, as every front end runs them.
    private var upkeep: StoreUpkeep?
    /// Shows a short message at the bottom of the window.
    var toast: (String) -> Void = { _ in }
    /// What went wrong while opening that the window can work without (an unreadable
    /// config.json: defaults are used; no cloud): shown once the window is up, never hidden.
    private(set) var startupProblems: [Error] = []

    init(environment: [String: String]) throws {
        paths = AppPaths(environment: environment)
        let folder = try paths.dataFolder()
        pool = try LibraryPool(folder: folder)
        worker = StoreWorker(pool: pool)
        // VOCAB_NOW fixes the clock (reproducible screenshots), like --now on the command line.
        if let text = environment["VOCAB_NOW"], let time = Timestamp(iso8601: text) {
            clock = FixedClock(time)
        } else {
            clock = SystemClock()
        }
        var problems: [Error] = []
        do {
            dictionaries = try paths.dictionaries()
        } catch {
            problems.append(error)
            dictionaries = DictionaryService(environment: environment)
        }
        do {
            sync = try SyncService(paths: paths)
        } catch {
            problems.append(error)
            sync = nil
        }
        do {
            studyDay = try paths.studyDay()
        } catch {
            problems.append(error)
            studyDay = StudyDay()
        }
        startupProblems = problems
        observation = pool.observe { [weak self] change in
            DispatchQueue.main.async { MainActor.assumeIsolated { self?.tell(change) } }
        }
        let upkeep = StoreUpkeep(pool: pool, policy: paths.backupPolicy(), clock: clock, failed: { [weak self] error in
            DispatchQueue.main.async { MainActor.assumeIsolated { self?.toast(AppModel.message(error)) } }
        })
        upkeep.start()
        self.upkeep = upkeep
    }

    /// The store file.
    var storePath: String { pool.path }

    /// A quick read on the main thread (a row, a count): a reader connection, never waiting
    /// for a write. Anything that grows with the store goes through `readInBackground`.
    func read<T>(_ body: (Library) throws -> T) throws -> T {
        try pool.read(body)
    }

    /// Calls `listener` after every change to the data, from this window or elsewhere.
    func onChange(_ listener: @escaping @MainActor (StoreChange) -> Void) {
        listeners.append(listener)
    }

    private func tell(_ change: StoreChange) {
        for listener in listeners { listener(change) }
    }

    /// Writes (and reads that must see the writer's state, like a session's) on the worker,
    /// one at a time; `completion` on the main thread. Observers hear of the commits at once.
    func background<T: Sendable>(_ body: @escaping @Sendable (Library) throws -> T,
                                 then completion: @escaping @MainActor @Sendable (Result<T, Error>) -> Void) {
        worker.perform(body, then: completion)
    }

    /// A read that can take long (a shelf's counts, a study queue) on a reader off the main
    /// thread, beside any write; `completion` on the main thread.
    func readInBackground<T: Sendable>(_ body: @escaping @Sendable (Library) throws -> T,
                                       then completion: @escaping @MainActor @Sendable (Result<T, Error>) -> Void) {
        worker.read(body, then: completion)
    }

    /// The message to show for an error, in the window's words and language.
    static func message(_ error: Error) -> String {
        WindowWording.message(for: error)
    }
}
