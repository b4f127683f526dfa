import FoundationEssentials
import Glibc
import Synchronization
import VocabCore
import VocabSessions
import VocabCloudAPI
import VocabSystem

/// A learner's store on a server of many: one more device of the learner's, synced with the
/// cloud, and what a front end keeps over it (`Front`: the web app's `WebApp`).
package final class Learner<Front: Sendable>: Sendable {
    let owner: String
    /// The learner's account (what the store is bound to).
    let account: ServerAddress
    let folder: String
    let pool: LibraryPool
    let front: Front
    /// Search indexing after pulls and the learner's own changes (no backups: the cache is a
    /// copy of the cloud, whose backups are the operator's).
    let upkeep: StoreUpkeep
    /// One sync at a time for a learner, whichever of their devices asks.
    let syncLock = Mutex(())
    /// When a request last used it (ContinuousClock nanoseconds since the server started).
    let lastUsed = Atomic<Int64>(0)
    /// Requests in flight: a learner in use is never evicted.
    let busy = Atomic<Int>(0)
    /// When the books the learner follows were last brought up to date.
    let sharedChecked = Mutex<ContinuousClock.Instant?>(nil)

    init(owner: String, account: ServerAddress, folder: String, pool: LibraryPool, front: Front) {
        self.owner = owner
        self.account = account
        self.folder = folder
        self.pool = pool
        self.front = front
        upkeep = StoreUpkeep(pool: pool, policy: BackupPolicy(automatic: false))
    }
}

/// The learners' stores, kept as a cache in `folder` (the cloud holds everything): one folder
/// per learner, named by a hash of the learner's name (no name from outside becomes a path).
/// Past `budget` bytes the stores used least lately are deleted — never one in use, used in
/// the last minute, or holding changes not yet sent to the cloud.
package final class LearnerStores<Front: Sendable>: Sendable {
    let folder: String
    let budget: Int64
    private let makeFront: @Sendable (LibraryPool) throws -> Front
    /// The open stores by their folder (a shard's lock covers opening and deleting a store).
    private let open = ShardedDictionary<Learner<Front>>()
    private let started = ContinuousClock.now
    private let evicting = Atomic<Bool>(false)
    /// When the last eviction pass began, as `Learner.lastUsed` keeps time (`Int64.min`: none
    /// yet); only the pass `evicting` lets run touches it.
    private let lastPass = Atomic<Int64>(.min)
    /// Each store's write-ahead log is checkpointed at 64 pages (512 KiB) instead of growing to
    /// 8 MiB: a thousand learners' logs would take 8 GiB of the cache's budget, and a log that grows has
    /// the system allocate and zero a new page at nearly every commit.
    static var logPages: Int { 64 }

    init(folder: String, budget: Int64, makeFront: @escaping @Sendable (LibraryPool) throws -> Front) throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        chmod(folder, 0o700)  // the learners' words: this user's only
        self.folder = folder
        self.budget = budget
        self.makeFront = makeFront
    }

    /// The learner's store (opened, or made empty), marked used now and in use (`busy`, which
    /// the caller lowers when done): it is not closed or evicted meanwhile.
    func learner(_ owner: String, server: ServerAddress) throws -> Learner<Front> {
        let place = folder + "/" + SHA256.hex(Array(owner.utf8)).prefix(32)
        var account = server
        account.user = owner
        // Opened under the lock that eviction holds while it deletes a store: a store is never
        // opened while its folder is being deleted (opening takes a few milliseconds, and a
        // learner's store is opened once while they use this server).
        let learner = try open.withShard(of: place) { open -> Learner<Front> in
            if let known = open[place] {
                known.busy.add(1, ordering: .relaxed)
                return known
            }
            let pool = try LibraryPool(folder: place, maximumReaders: 2, watchingOtherProcesses: false, logPages: Self.logPages)
            let made = Learner(owner: owner, account: account, folder: place, pool: pool, front: try makeFront(pool))
            made.upkeep.start()
            open[place] = made
            made.busy.add(1, ordering: .relaxed)
            return made
        }
        touch(learner)
        return learner
    }

    private func touch(_ learner: Learner<Front>) {
        learner.lastUsed.store(nanosecondsSinceStart(), ordering: .relaxed)
    }

    /// The time now as `Learner.lastUsed` keeps it.
    private func nanosecondsSinceStart() -> Int64 {
        Self.nanoseconds(started.duration(to: .now))
    }

    private static func nanoseconds(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000
    }

    /// Closes the stores of learners not seen for `seconds` (none in use): their files stay.
    func closeIdle(seconds: Int) {
        let before = nanosecondsSinceStart() - Int64(seconds) * 1_000_000_000
        open.forEachShard { open in
            open = open.filter { $0.value.busy.load(ordering: .relaxed) > 0 || $0.value.lastUsed.load(ordering: .relaxed) >= before }
        }
    }

    /// How many learners' stores are open.
    package var openCount: Int { open.count }
    /// Stores deleted to keep the cache within its budget, since start.
    package var evicted: Int { evictedCount.load(ordering: .relaxed) }
    private let evictedCount = Atomic<Int>(0)
    /// Bytes the stores took at the last pass over the cache (after its deletions).
    package var measuredBytes: Int64 { measured.load(ordering: .relaxed) }
    private let measured = Atomic<Int64>(0)

    /// Deletes the stores used least lately until the cache fits its budget: one pass at a time
    /// (a pass already running is not waited for), and none when one began less than
    /// `notWithin` ago — a pass reads the size of every store in the cache, and a thousand
    /// sign-ins in a minute need one pass every few seconds, not a thousand.
    func evictIfOverBudget(notWithin: Duration = .seconds(5)) {
        guard evicting.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged else { return }
        defer { evicting.store(false, ordering: .releasing) }
        let now = nanosecondsSinceStart()
        let last = lastPass.load(ordering: .relaxed)
        if last != .min, now - last < Self.nanoseconds(notWithin) { return }
        lastPass.store(now, ordering: .relaxed)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        var stores = names.map { name -> (path: String, bytes: Int64, used: Date) in
            let path = folder + "/" + name
            return (path, Self.bytes(in: path), Self.lastChange(in: path))
        }
        var total = stores.reduce(0) { $0 + $1.bytes }
        defer { measured.store(total, ordering: .relaxed) }
        guard total > budget else { return }
        stores.sort { $0.used < $1.used }
        let recent = now - 60 * 1_000_000_000
        for store in stores where total > budget {
            // Decided and deleted under the lock a store is opened under: no request opens it
            // meanwhile, and one that holds it (busy) keeps it.
            let deleted = open.withShard(of: store.path) { open -> Bool in
                if let learner = open[store.path] {
                    guard learner.busy.load(ordering: .relaxed) == 0, learner.lastUsed.load(ordering: .relaxed) < recent,
                          (try? learner.pool.read { try $0.outboxCount() }) == 0 else { return false }
                    open.removeValue(forKey: store.path)
                } else {
                    guard let waiting = try? Library.open(folder: store.path).outboxCount(), waiting == 0 else { return false }
                }
                try? FileManager.default.removeItem(atPath: store.path)
                return true
            }
            if deleted {
                total -= store.bytes
                evictedCount.add(1, ordering: .relaxed)
            }
        }
    }

    private static func bytes(in folder: String) -> Int64 {
        var total: Int64 = 0
        for file in (try? FileManager.default.subpathsOfDirectory(atPath: folder)) ?? [] {
            var info = stat()
            if stat(folder + "/" + file, &info) == 0, info.st_mode & S_IFMT == S_IFREG { total += Int64(info.st_size) }
        }
        return total
    }

    private static func lastChange(in folder: String) -> Date {
        let store = folder + "/" + Library.fileName
        let wal = store + "-wal"
        return [store, wal].compactMap { try? FileManager.default.attributesOfItem(atPath: $0)[.modificationDate] as? Date }.max() ?? .distantPast
    }
}
