import Foundation
import VocabCore
import VocabStore
import VocabSessions

/// What every screen of the window shares: the store (the window's own connection), a worker
/// with a connection of its own for long jobs, the clock, the dictionaries, the cloud, and the
/// one place that tells screens the data changed — after the window's own commits at once, and
/// after other processes' (or the worker's) within half a second.
@MainActor
final class AppModel {
    let paths: AppPaths
    let store: Store
    let worker: StoreWorker
    let clock: SessionClock
    let dictionaries: DictionaryService
    let sync: SyncService?
    private var listeners: [@MainActor (StoreChange) -> Void] = []
    private var observation: ObservationToken?
    /// Shows a short message at the bottom of the window.
    var toast: (String) -> Void = { _ in }
    /// What went wrong while opening that the window can work without (an unreadable
    /// config.json: defaults are used; no cloud): shown once the window is up, never hidden.
    private(set) var startupProblems: [Error] = []

    init(environment: [String: String]) throws {
        paths = AppPaths(environment: environment)
        let folder = try paths.dataFolder()
        store = try Store.open(folder: folder)
        worker = StoreWorker(folder: folder)
        // Open the worker's connection now, so the first search or list does not wait for it.
        worker.perform({ _ in }, then: { _ in })
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
        startupProblems = problems
        observation = store.observe { [weak self] change in self?.tell(change) }
        every(milliseconds: 500) { [weak self] in
            guard let self else { return false }
            _ = try? self.store.checkForOutsideChanges()
            return true
        }
    }

    /// Calls `listener` after every change to the data, from this window or elsewhere.
    func onChange(_ listener: @escaping @MainActor (StoreChange) -> Void) {
        listeners.append(listener)
    }

    private func tell(_ change: StoreChange) {
        for listener in listeners { listener(change) }
    }

    /// Runs store work on the worker; the window hears of its commits at once when it ends.
    func background<T: Sendable>(_ body: @escaping @Sendable (Store) throws -> T,
                                 then completion: @escaping @MainActor @Sendable (Result<T, Error>) -> Void) {
        worker.perform(body) { [weak self] result in
            _ = try? self?.store.checkForOutsideChanges()
            completion(result)
        }
    }

    /// The message to show for an error, in the window's words and language.
    static func message(_ error: Error) -> String {
        WindowWording.message(for: error)
    }
}
