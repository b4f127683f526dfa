import FoundationEssentials
import Synchronization
import VocabCore
import VocabSystem

/// Imports started from the web app, run by the server's import workers while the page asks how
/// far it got: at most `running` of a learner's at once (they take turns at the store's writer
/// anyway), each cancellable by the device that started it; a finished one is kept for its page
/// to read.
final class WebImports: Sendable {
    /// The whole server's import workers: two threads, whatever the number of learners importing,
    /// taking their stores in turn; 64 imports wait at most (more are refused as too busy).
    static let workers = FairWorkQueue(workers: 2, pendingPerKey: 2, pendingInAll: 64, runningPerKey: 1)

    enum State: Sendable {
        case running(rows: Int, share: Double?)
        /// What the import did, as the API's JSON object.
        case done(ImportOutcomeRow)
        /// Why it failed: the layer's error (worded in the asking page's language), or a message.
        case failed(WebProblem)
        case cancelled
    }

    final class Job: Sendable {
        let id = UUID()
        let device: String
        let state = Mutex<State>(.running(rows: 0, share: nil))
        let cancelled = Atomic<Bool>(false)
        let started = Date()

        init(device: String) { self.device = device }

        var isRunning: Bool { state.withLock { if case .running = $0 { return true } else { return false } } }
    }

    private let jobs = Mutex<[UUID: Job]>([:])
    let running: Int, kept: Int

    init(running: Int = 2, kept: Int = 32) {
        self.running = running
        self.kept = kept
    }

    /// A new job for `device`, or nil when `running` imports are running already.
    func start(device: String) -> Job? {
        jobs.withLock { jobs in
            guard jobs.values.filter(\.isRunning).count < running else { return nil }
            while jobs.count >= kept, let oldest = jobs.values.filter({ !$0.isRunning }).min(by: { $0.started < $1.started }) {
                jobs[oldest.id] = nil
            }
            let job = Job(device: device)
            jobs[job.id] = job
            return job
        }
    }

    /// The job `id` if `device` started it.
    func job(_ id: UUID, device: String) -> Job? {
        jobs.withLock { $0[id] }.flatMap { $0.device == device ? $0 : nil }
    }
}
