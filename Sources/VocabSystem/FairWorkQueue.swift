
/// The server's workers: a fixed number of threads that answer the requests whose head and
/// body have come, taken in turn by key (the learner a request is for, the address network of
/// one not yet proved, or a kind of request that shares one turn, as sign-ins do) — so a key
/// with many requests waiting is served one at a time between everyone else's, never before
/// them, and holds at most `runningPerKey` workers at once (a key whose requests wait on
/// something, as sign-ins wait for a password check, never takes every worker). Each key may
/// have `pendingPerKey` waiting and all together `pendingInAll`; more are refused at once (the
/// caller answers "busy"). Threads: the `workers` started at once, no more whatever the load.
///
/// A job that only reads (`reading`) never waits on anyone else, where a write may wait for
/// the learner's lock or a connection to the cloud: writes never hold the last
/// `keptForReads` workers, so a read is never queued behind writes waiting on something else.
package final class FairWorkQueue: @unchecked Sendable {
    package typealias Job = @Sendable () -> Void

    let workers: Int
    let pendingPerKey: Int
    let pendingInAll: Int
    let runningPerKey: Int
    /// Workers only reads may take: writes hold at most `workers - keptForReads`.
    let keptForReads: Int
    private let condition = ThreadCondition()
    // Guarded by `condition`.
    private var queues: [String: [(reading: Bool, job: Job)]] = [:]
    /// The keys with jobs waiting, in the order of their next turn.
    private var turns: [String] = []
    private var runningByKey: [String: Int] = [:]
    private var pending = 0
    private var running = 0
    private var writesRunning = 0
    private var stopping = false

    package init(workers: Int, pendingPerKey: Int, pendingInAll: Int, runningPerKey: Int = .max, keptForReads: Int = 0) {
        self.workers = max(workers, 1)
        self.pendingPerKey = max(pendingPerKey, 1)
        self.pendingInAll = max(pendingInAll, 1)
        self.runningPerKey = max(runningPerKey, 1)
        self.keptForReads = min(max(keptForReads, 0), self.workers - 1)
        for _ in 0..<self.workers { Threads.start { [self] in work() } }
    }

    /// Queues `job` for `key` (`reading`: it only reads, see `keptForReads`); false (nothing
    /// queued) when the key or everyone has too many waiting, or the queue stopped.
    package func submit(key: String, reading: Bool = false, _ job: @escaping Job) -> Bool {
        condition.withLock {
            guard !stopping, pending < pendingInAll, queues[key, default: []].count < pendingPerKey else { return false }
            if queues[key, default: []].isEmpty { turns.append(key) }
            queues[key, default: []].append((reading, job))
            pending += 1
            condition.signal()
            return true
        }
    }

    /// Takes no more jobs; the workers end once those waiting are done.
    package func stop() {
        condition.withLock {
            stopping = true
            condition.broadcast()
        }
    }

    /// Jobs running and waiting now.
    package var load: (running: Int, waiting: Int) { condition.withLock { (running, pending) } }

    private func work() {
        while let (key, reading, job) = next() {
            job()
            condition.withLock {
                running -= 1
                if !reading { writesRunning -= 1 }
                runningByKey[key] = (runningByKey[key] ?? 1) - 1
                if runningByKey[key] == 0 { runningByKey.removeValue(forKey: key) }
                condition.broadcast()  // its key may take a worker again
            }
        }
    }

    /// The first job of the first key in turn that may take a worker, waiting for one; nil
    /// once stopped and none is left.
    private func next() -> (String, Bool, Job)? {
        condition.withLock {
            while true {
                let writesMayRun = writesRunning < workers - keptForReads
                // The key's first job, or, while writes hold their share, its first read.
                func takeable(_ key: String) -> Int? {
                    guard (runningByKey[key] ?? 0) < runningPerKey else { return nil }
                    return writesMayRun ? 0 : queues[key]?.firstIndex(where: \.reading)
                }
                let found = turns.indices.lazy.compactMap { index in takeable(self.turns[index]).map { (index, $0) } }.first
                if let (index, place) = found {
                    let key = turns[index]
                    var queue = queues[key] ?? []
                    let (reading, job) = queue.remove(at: place)
                    if queue.isEmpty {
                        queues.removeValue(forKey: key)
                        turns.remove(at: index)
                    } else {
                        queues[key] = queue
                        // Its next job after every other key's; a read taken past its waiting
                        // write leaves the write its place.
                        if place == 0 { turns.append(turns.remove(at: index)) }
                    }
                    pending -= 1
                    running += 1
                    if !reading { writesRunning += 1 }
                    runningByKey[key, default: 0] += 1
                    return (key, reading, job)
                }
                if stopping && turns.isEmpty { return nil }
                condition.wait()
            }
        }
    }
}
