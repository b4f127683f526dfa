import Dispatch
import FoundationEssentials
import Synchronization
import VocabCloud
import VocabCloudAPI
import VocabCore
import VocabSessions
import VocabSystem

/// Where the cloud is, and how its session layer behaves.
package struct CloudSettings: Sendable {
    /// The cloud's host, port and database, and the server tier's role (`vocab_server`).
    package var server: ServerAddress
    /// The role's password; nil: libpq's own (PGPASSWORD, ~/.pgpass).
    package var serverPassword: String?
    /// Connections to the cloud, shared by every learner's requests.
    package var connections: Int
    /// Where the learners' stores are kept, and the most they may take.
    package var cacheFolder: String
    package var cacheBytes: Int64
    package var timeouts: CloudTimeouts

    package init(server: ServerAddress, serverPassword: String? = nil, connections: Int = 4, cacheFolder: String, cacheBytes: Int64,
                 timeouts: CloudTimeouts = CloudTimeouts(connectSeconds: 5, statementSeconds: 30, lockSeconds: 10)) {
        self.server = server
        self.serverPassword = serverPassword
        self.connections = connections
        self.cacheFolder = cacheFolder
        self.cacheBytes = cacheBytes
        self.timeouts = timeouts
    }
}

/// The cloud's session layer: what a Vocab server of many learners does with the cloud, for
/// every protocol that reaches it (the web app's pages, the device API, and the next one). It
/// owns the server's few connections to the cloud, the devices that proved themselves here,
/// sign-in and its limits, each learner's store kept in step with the cloud (its sync policy),
/// sharing, and the account's devices. A protocol's handler translates its request into one of
/// these calls and their values (or a `Refusal`) into its answer; no rule lives in a handler.
///
/// Every cloud function a call runs takes the device's id and secret and acts for that device's
/// learner alone, so a device signed out on any server is refused at its next call here. Each
/// learner's words live in a store of the server's (`LearnerStores`, a cache) synced with the
/// cloud: pulled when the cloud has news, pushed after each change. `Front` is what a front end
/// keeps over a learner's store (the web app's `WebApp`): made with the store, let go with it.
package final class CloudService<Front: Sendable>: Sendable {
    let settings: CloudSettings
    /// The learners' stores on this server, each with its front end's `Front`.
    package let stores: LearnerStores<Front>
    /// The server's connections to the cloud.
    let cloud: CloudConnections
    /// Wrong passwords per address network from strangers to the accounts they try: 30 free (a
    /// school's learners share one), then waits that double. Every failure is forgotten 15
    /// minutes after it (`SignInLimiter`).
    let limiter = SignInLimiter(free: 30)
    /// Device tokens the cloud refused (signed out, or made up), per address and apart from
    /// passwords: a signed-out device retrying from a school's address never keeps anyone there
    /// from signing in. A device id is held back after 5 from one address, before it counts
    /// against the address; from another address it is not (a stranger who knows a device's id
    /// cannot hold the device back: its 256-bit secret is no guess anyway).
    let tokenFailures = SignInLimiter(free: 100)
    let deviceFailures = SignInLimiter(free: 5)
    /// Wrong passwords per account from one source (a browser's mark, or else an address
    /// network): 5 free, then waits that double.
    let accountFromAddress = SignInLimiter()
    /// Wrong passwords per account from strangers together (sources the owner was never seen
    /// at): past 20, every stranger waits — guessing from fresh addresses stops — while the
    /// owner, from where he signed in before, is never held by it (`KnownSources`).
    let accountCeiling = SignInLimiter(free: 20, firstLock: 60, longestLock: 3_600)
    /// Where each account's owner has been seen.
    let knownSources = KnownSources()
    /// Passwords checked at once (Argon2id takes 64 MiB and a core's time each): two, known
    /// accounts from clean addresses first; more wait, 30 s at most.
    private let passwordChecks = PasswordChecks(places: 2)
    /// Pulls into a learner's store after a sign-in, off the request: four at a time, one
    /// waiting per learner (a second sign-in meanwhile finds his first pull under way).
    private let firstFills = FairWorkQueue(workers: 4, pendingPerKey: 1, pendingInAll: 1_000)
    /// The followed books' checks off the requests' way: two at a time, one waiting per learner
    /// (threads fixed in number, never one per check).
    private let followedChecks = FairWorkQueue(workers: 2, pendingPerKey: 1, pendingInAll: 1_000)
    /// The devices that proved themselves lately, by id (the cloud checks them again in every
    /// function a call runs; this only names their learner).
    private let devices = ShardedDictionary<SignedInDevice>()
    /// How long a device's last check with the cloud answers its reads (a device signed out
    /// on another server is refused here within this time; issue 39 allows a second).
    static var freshFor: Duration { .milliseconds(500) }
    /// How often a learner's followed books are asked after while he is served.
    static var sharedEvery: Duration { .seconds(5) }

    /// `makeFront` makes a front end's keeping of a learner's store when it is opened.
    package init(settings: CloudSettings, makeFront: @escaping @Sendable (LibraryPool) throws -> Front) throws {
        self.settings = settings
        stores = try LearnerStores(folder: settings.cacheFolder, budget: settings.cacheBytes, makeFront: makeFront)
        cloud = CloudConnections(address: settings.server, password: settings.serverPassword, timeouts: settings.timeouts,
                                 capacity: settings.connections)
        // Once a minute: devices and stores nobody used for 10 minutes are let go (a device comes
        // back with its key, a store from its file), and the cache is kept within its budget.
        let sweep = DispatchSource.makeTimerSource(queue: .global(qos: .utility))
        sweep.schedule(deadline: .now() + 60, repeating: 60)
        sweep.setEventHandler { [weak self] in self?.letGoOfIdle(seconds: 600) }
        sweep.resume()
        self.sweep = sweep
    }

    nonisolated(unsafe) private var sweep: DispatchSourceTimer?

    deinit { sweep?.cancel() }

    /// Forgets the devices not used for `seconds`, closes the stores of learners not seen
    /// as long, and brings the cache back within its budget (stores grow with what they pull).
    package func letGoOfIdle(seconds: Int) {
        let now = ContinuousClock.now
        devices.forEachShard { devices in
            devices = devices.filter { now - $0.value.lastUsed.withLock { $0 } < .seconds(seconds) }
        }
        stores.closeIdle(seconds: seconds)
        stores.evictIfOverBudget()
    }

    /// Checks that the cloud answers this server's role and speaks this Vocab's schema;
    /// throws the refusal otherwise (in the administrator's words: a `CloudError`).
    package func checkCloud() throws {
        try cloud.with(for: nil) { try CloudSchema.requireThisVersion(on: $0) }
    }

    /// How many devices are signed in to this server now (in memory).
    package var signedInCount: Int { devices.count }

    /// How loaded the service is now, for an operator's metrics.
    package struct Load: Sendable {
        /// Connections to the cloud lent to requests, and requests waiting for one.
        package var cloudConnectionsLent: Int
        package var waitingForCloud: Int
        /// Connections closed because the cloud broke them (a failover, a restart), since start.
        package var cloudConnectionsLost: Int
        package var devicesSignedIn: Int
        package var storesOpen: Int
        /// Learners' stores deleted to keep the cache within its budget, since start.
        package var storesEvicted: Int
        /// Bytes the stores take, as the last pass over the cache measured them.
        package var cacheBytes: Int64
        package var passwordChecksWaiting: Int
    }

    package var load: Load {
        let lent = cloud.lent
        return Load(cloudConnectionsLent: lent.places, waitingForCloud: lent.waiting, cloudConnectionsLost: cloud.lost,
                    devicesSignedIn: devices.count, storesOpen: stores.openCount, storesEvicted: stores.evicted, cacheBytes: stores.measuredBytes,
                    passwordChecksWaiting: passwordChecks.waiting)
    }

    // MARK: Who is asking

    /// Whom a device key belongs to, from what this server holds in memory alone (asked on a
    /// server's polling threads, so it never waits on the cloud): nil when the key is not one
    /// that proved itself here lately (the cloud is asked then, by `caller`).
    package func knownOwner(token: String) -> String? {
        guard let key = DeviceKey(token: token), let known = devices[key.id], known.accepts(key.secret) else { return nil }
        return known.owner
    }

    /// The device a key names, when its secret is right and it is signed in; `network`: the
    /// address network the request came from (`AddressNetwork`), whose failures are counted.
    package func caller(token: String?, network: String) throws -> Caller {
        guard let token, let key = DeviceKey(token: token) else { throw Refusal.signInFirst }
        let keys = ["address:" + network], deviceKey = ["device:" + key.id + "@" + network]
        if let known = devices[key.id] {
            guard known.accepts(key.secret) else {
                tokenFailures.failed(keys, reserved: false)
                throw Refusal.signInFirst
            }
            known.lastUsed.withLock { $0 = .now }
            if known.movedTo(network) { knownSources.saw(known.owner, at: network) }
            return Caller(key: key, owner: known.owner, device: known)
        }
        // Not seen since this server started (or signed out here): the cloud checks the secret.
        let wait = max(deviceFailures.wait(deviceKey), tokenFailures.wait(keys))
        if wait > 0 { throw Refusal.tooManyTries(seconds: wait) }
        do {
            let owner = try cloud.with(for: nil) { try CloudDevices.learner(of: key, on: $0) }
            knownSources.saw(owner, at: network)  // the owner's device proved itself from there
            return remember(key, owner: owner)
        } catch CloudError.accessDenied {
            deviceFailures.failed(deviceKey, reserved: false)
            tokenFailures.failed(keys, reserved: false)
            throw Refusal.deviceSignedOut
        } catch {
            throw Refusal.cloudUnreachable
        }
    }

    /// Remembers a device that proved itself, with its learner.
    private func remember(_ key: DeviceKey, owner: String) -> Caller {
        let device = SignedInDevice(id: key.id, owner: owner, secretHash: SHA256.hash(Array(key.secret.utf8)))
        devices[key.id] = device
        return Caller(key: key, owner: owner, device: device)
    }

    private func forget(devices ids: [String]) {
        for id in ids { devices[id] = nil }
    }

    // MARK: Signing in and out

    /// Checks the learner's password against the verifier the cloud keeps and adds a device to
    /// the account, labelled `label`. The rules (docs/operating.md, "A server of many learners"):
    /// - From a source the owner was seen at (an address network he signed in from, or a browser
    ///   marked at a sign-in that passed), only that source's own failures for the account count
    ///   (5 free, then waits that double): strangers never hold the owner back.
    /// - From any other source, also its address network's failures for every account (30 free)
    ///   and the account's ceiling, which counts strangers' failures together: past 20, every
    ///   stranger waits, whatever his address.
    /// - Every failure is forgotten 15 minutes after it; a success clears its source's.
    /// - An account with no room for another device, asked from a known source, is refused at
    ///   once: no password is checked for a device that would be refused anyway.
    /// Each limit takes its place before the password is checked: tries sent at once count as they come.
    package func signIn(user: String, password: String, label: String, from source: KnownSources.Source) throws -> Caller {
        guard UserName.isValid(user), !password.isEmpty, password.utf8.count <= 1_024 else { throw Refusal.wrongPassword }
        let account = user.lowercased()
        let known = knownSources.knows(account, at: source)
        let networkKeys = ["address:" + source.network]
        let addressKeys = known ? [] : networkKeys
        let pair = ["account:" + account + "@" + (known ? source.mark.map { "mark:" + SHA256.hex(Array($0.utf8)) } ?? source.network : source.network)]
        let ceiling = known ? [] : ["account:" + account]
        let taken = try reserveTries([(limiter, addressKeys), (accountFromAddress, pair), (accountCeiling, ceiling)])
        var settled = false
        defer { if !settled { taken.forEach { $0.limiter.settled($0.keys) } } }  // no verdict: nothing counted
        let clean = known || !limiter.hasFailed(networkKeys)
        let device: DeviceKey?
        do {
            device = try CloudDevices.signIn(user: user, password: password, label: label, lending: { step in
                try cloud.with(for: nil) { try step($0) }  // none held while the password is checked
            }, checking: { found, check in
                if known, let full = found.full { throw CloudError.quotaExceeded(full) }
                let standing: PasswordChecks.Standing = found.exists && clean ? .likelyOwner : .other
                guard try passwordChecks.run(as: standing, check) != nil else { throw Refusal.busySigningIn }
            })
        } catch CloudError.quotaExceeded(let limit) {
            throw Refusal.accountLimit(limit)
        } catch is CloudError {
            throw Refusal.cloudUnreachable
        }
        settled = true
        guard let device else {
            taken.forEach { $0.limiter.failed($0.keys, reserved: true) }
            throw Refusal.wrongPassword
        }
        accountFromAddress.succeeded(pair)
        limiter.settled(addressKeys)  // the address stays counted: others may guess from it
        accountCeiling.settled(ceiling)
        knownSources.saw(account, at: source.network)
        return remember(device, owner: user)
    }

    /// Takes a try in each limiter for its keys, or none (too many tries, with the longest wait).
    private func reserveTries(_ wanted: [(limiter: SignInLimiter, keys: [String])]) throws -> [(limiter: SignInLimiter, keys: [String])] {
        var taken: [(limiter: SignInLimiter, keys: [String])] = []
        for entry in wanted where !entry.keys.isEmpty {
            let wait = entry.limiter.reserve(entry.keys)
            guard wait == 0 else {
                taken.forEach { $0.limiter.settled($0.keys) }
                throw Refusal.tooManyTries(seconds: wait)
            }
            taken.append(entry)
        }
        return taken
    }

    /// A new mark for a browser of `owner`'s (its failures never hold him back).
    package func mark(for owner: String) -> String { knownSources.mark(for: owner) }

    /// Starts pulling a learner's store after his sign-in, off the caller's way (a large account
    /// takes minutes the first time), and waits for it `seconds` at most: the first page of most
    /// learners shows their words at once; past that, the pages show what has come so far.
    package func fillStore(of caller: Caller, waitingAtMost seconds: Double) throws {
        let store = try stores.learner(caller.owner, server: settings.server)
        let pulled = DispatchSemaphore(value: 0)
        let filling = firstFills.submit(key: caller.owner) { [self] in
            defer {
                store.busy.subtract(1, ordering: .relaxed)
                pulled.signal()
            }
            _ = try? freshen(store, caller, pushing: false)
            stores.evictIfOverBudget()
        }
        if filling { _ = pulled.wait(timeout: .now() + seconds) } else { store.busy.subtract(1, ordering: .relaxed) }
    }

    /// Signs the caller's device out (its account's every device when `everywhere`) and forgets
    /// them here; returns how many the cloud signed out.
    package func signOut(_ caller: Caller, everywhere: Bool) throws -> Int {
        let count = try cloudCall(caller) { try CloudDevices.signOut(everywhere ? nil : caller.key.id, by: caller.key, on: $0) }
        if everywhere {
            var ids: [String] = []
            devices.forEachShard { ids += $0.values.filter { $0.owner == caller.owner }.map(\.id) }
            forget(devices: ids)
        } else {
            forget(devices: [caller.key.id])
        }
        return count
    }

    /// Signs another device of the caller's account out.
    package func signOut(_ caller: Caller, device id: String) throws {
        let count = try cloudCall(caller) { try CloudDevices.signOut(id, by: caller.key, on: $0) }
        guard count > 0 else { throw Refusal.noSuchDevice }
        forget(devices: [id])
    }

    /// The devices of the caller's account.
    package func devices(of caller: Caller) throws -> [CloudDevice] {
        try cloudCall(caller) { try CloudDevices.list(by: caller.key, on: $0) }
    }

    // MARK: A device's own sync (the device API's pull and push, straight to the cloud)

    /// How far the account is.
    package func counts(_ caller: Caller) throws -> CloudCounts {
        try cloudCall(caller) { try DatabaseSyncChannel(connection: $0, device: caller.key).counts() }
    }

    /// The account's records after change `after`, `limit` at most (`PullBounds`).
    package func pull(_ caller: Caller, after: Int64, limit: Int) throws -> [PulledRow] {
        try cloudCall(caller, bulk: true) { try DatabaseSyncChannel(connection: $0, device: caller.key).pull(after: after, limit: PullBounds.records(limit)) }
    }

    /// A followed book's records after `after`, as a pull's.
    package func pullShared(_ caller: Caller, share: UUID, after: Int64, limit: Int) throws -> [PulledRow] {
        try cloudCall(caller, bulk: true) {
            try DatabaseSharing(connection: $0, device: caller.key).pullShared(share: share, after: after, limit: PullBounds.records(limit))
        }
    }

    /// Stores a device's batch (the cloud measures and checks it). `merging`: the device tells
    /// its own rows from others' by their seqs, so a batch touching none of the records changed
    /// since `token` is stored after them.
    package func push(_ caller: Caller, token: Int64, batch: String, intoEmptyAccount: Bool, merging: Bool) throws -> PushOutcome {
        try cloudCall(caller, bulk: true) { connection in
            let channel = DatabaseSyncChannel(connection: connection, device: caller.key, merging: merging)
            try channel.startPush(token: token, batch: batch, intoEmptyAccount: intoEmptyAccount)
            return try channel.finishPush()
        }
    }

    // MARK: Sharing

    /// One call of the cloud's sharing functions for the caller's device.
    package func sharing<T>(_ caller: Caller, _ body: (SharingChannel) throws -> T) throws -> T {
        try cloudCall(caller) { try body(DatabaseSharing(connection: $0, device: caller.key)) }
    }

    /// What a share's code offers, before following it.
    package func preview(_ caller: Caller, code: String) throws -> SharePreview {
        try cloudCall(caller) { try DatabaseSharing(connection: $0, device: caller.key).preview(code: String(code.prefix(64))) }
    }

    /// Runs `body` at the caller's place (his store held meanwhile): the sharing steps that
    /// change his store as well as the cloud (share, follow, unfollow).
    package func atLearnersPlace<T>(_ caller: Caller, _ body: (any SharingPlace) throws -> T) throws -> T {
        let learner = try stores.learner(caller.owner, server: settings.server)
        defer { learner.busy.subtract(1, ordering: .relaxed) }
        return try body(LearnersPlace(service: self, learner: learner, caller: caller))
    }

    // MARK: Serving a learner from his store

    /// Serves a learner's request from his store, kept in step with the cloud: a read within
    /// `freshFor` of the device's last word with the cloud is answered from the store as it is;
    /// anything else asks the cloud first (news, and whether the device is still signed in: a
    /// sign-out elsewhere is refused within that time). A write that `changed` says changed
    /// something is pushed with the counts asked just before it. `body` runs with the learner's
    /// `Front`.
    package func serve<T>(_ caller: Caller, writing: Bool, changed: (T) -> Bool, _ body: (Front) throws -> T) throws -> T {
        let learner = try stores.learner(caller.owner, server: settings.server)
        defer { learner.busy.subtract(1, ordering: .relaxed) }
        var counts: CloudCounts?
        if writing || !caller.device.checked(within: Self.freshFor) {
            let asking = ContinuousClock.now
            counts = try freshen(learner, caller, pushing: false, waitingForOthers: writing)
            caller.device.markChecked(at: asking)  // a cloud out of reach too: reads go on from the store meanwhile
        }
        let answer = try body(learner.front)
        if writing, changed(answer) { try freshen(learner, caller, pushing: true, known: counts) }
        return answer
    }

    /// Asks the cloud how far the account is (which also proves the device is still signed in)
    /// and syncs the learner's store when either side has news; `pushing`: after a change.
    /// `known`: the counts this request asked before its change, used instead of asking again
    /// (the push checks that the account is still there). Returns the counts it asked or used
    /// (nil when the cloud could not be reached).
    /// A device signed out is refused. A cloud that cannot be reached leaves the store as it is:
    /// the learner goes on with it, and what they change waits for the next request.
    /// Whenever the cloud was asked (counts, a push, a pull: each checks the device), the device
    /// counts as checked from the moment the cloud was asked (after any wait for the learner's
    /// lock or a connection) — so the next card after a grade, which pushed, is answered from
    /// the store even when the grade waited long.
    /// `waitingForOthers`: false for a read, answered from the store as it is while another
    /// request of the learner's syncs it (nil is returned then).
    @discardableResult
    func freshen(_ learner: Learner<Front>, _ caller: Caller, pushing: Bool, known: CloudCounts? = nil, sharedNow: Bool = false,
                 waitingForOthers: Bool = true) throws -> CloudCounts? {
        // The books the learner follows: at once after a follow; else every few seconds (an
        // owner's change shows on an open phone within them), off the request's way.
        let due = learner.sharedChecked.withLock { checked in
            guard sharedNow || checked.map({ ContinuousClock.now - $0 > Self.sharedEvery }) ?? true else { return false }
            checked = .now
            return true
        }
        if sharedNow {
            try bringFollowedBooksUpToDate(learner, caller)
        } else if due {
            learner.busy.add(1, ordering: .relaxed)  // not evicted meanwhile
            let queued = followedChecks.submit(key: caller.owner) { [self] in
                defer { learner.busy.subtract(1, ordering: .relaxed) }
                try? bringFollowedBooksUpToDate(learner, caller)
            }
            if !queued { learner.busy.subtract(1, ordering: .relaxed) }  // one is waiting already, or too many: the next turn asks
        }
        do {
            let bringUpToDate = { [self] () throws -> CloudCounts? in
                try cloud.with(for: caller.owner) { connection in
                    // The cloud checks the device in what runs from now: the time it answers
                    // for (not when the request began to wait for the lock or a connection).
                    let asked = ContinuousClock.now
                    let counts = try known ?? DatabaseSyncChannel(connection: connection, device: caller.key).counts()
                    let (token, waiting) = try learner.pool.read { library in (try library.pulledThrough(for: learner.account.url), try library.outboxCount()) }
                    let syncing = counts.latest != token || waiting > 0
                    if syncing {
                        try learner.pool.write { library in
                            try ChannelSync.run(library, through: DatabaseSyncChannel(connection: connection, device: caller.key),
                                                account: learner.account, known: counts)
                        }
                    }
                    if known == nil || syncing { caller.device.markChecked(at: asked) }
                    return counts
                }
            }
            if !waitingForOthers {
                // A read while another request brings the store up to date (a sign-in's first
                // pull of a large account, say) is answered from the store as it is: it never
                // holds a worker for as long as that takes.
                return try learner.syncLock.withLockIfAvailable { _ in try bringUpToDate() } ?? nil
            }
            return try learner.syncLock.withLock { _ in try bringUpToDate() }
        } catch let error as CloudError {
            switch error {
            case .unreachable, .timedOut: return nil
            case .quotaExceeded(let limit) where pushing: throw Refusal.accountLimit(limit)
            case .accessDenied, .deviceSignedOut, .serverError: throw refusal(for: error, caller)
            default: throw Refusal.cloudUnreachable
            }
        }
    }

    /// Pulls what changed in the books the learner follows into his store.
    private func bringFollowedBooksUpToDate(_ learner: Learner<Front>, _ caller: Caller) throws {
        try learner.syncLock.withLock { _ in
            try cloudCall(caller) { connection in
                try learner.pool.write { library in
                    try ChannelSync.bringFollowedBooks(into: library, through: DatabaseSharing(connection: connection, device: caller.key))
                }
            }
        }
    }

    // MARK: The cloud's errors as refusals

    /// `body` with a connection of the caller's (`bulk`: for bulk work), the cloud's errors as
    /// the refusals they mean.
    private func cloudCall<T>(_ caller: Caller, bulk: Bool = false, _ body: (PostgresConnection) throws -> T) throws -> T {
        try withCloud(caller, bulk: bulk, body)
    }

    /// What a cloud error means to the device asking (one signed out is forgotten here).
    func refusal(for error: CloudError, _ caller: Caller) -> Refusal {
        switch error {
        case .shareRefused(let refusal): return .share(refusal)
        case .accessDenied, .deviceSignedOut:
            forget(devices: [caller.key.id])
            return .deviceSignedOut
        case .quotaExceeded(let limit): return .accountLimit(limit)
        // The account's own lock, held by another of its requests: this learner waits, no one else.
        case .lockNotAvailable: return .accountBusy
        // The cloud refused what was sent; its own words (a relation, a constraint) stay here.
        case .serverError: return .cloudRefusedForm
        default: return .cloudUnreachable
        }
    }
}

/// A signed-in learner's place on this server: his store here, the cloud's sharing functions
/// for his device, and `freshen` as the sync before a share.
private struct LearnersPlace<Front: Sendable>: SharingPlace {
    let service: CloudService<Front>
    let learner: Learner<Front>
    let caller: Caller

    func reading<T>(_ body: (Library) throws -> T) throws -> T { try learner.pool.read(body) }
    func writing<T>(_ body: (Library) throws -> T) throws -> T { try learner.pool.write(body) }
    func syncFirst() throws { try service.freshen(learner, caller, pushing: true) }
    func bringFollowedBooks() throws { try service.freshen(learner, caller, pushing: false, sharedNow: true) }
    func sharing<T>(_ body: (SharingChannel) throws -> T) throws -> T { try service.sharing(caller, body) }
}

/// A device that proved itself to this server: its id, its learner, and its secret's hash
/// (to check the next request's key without asking the cloud who it is). The secret itself
/// is not kept.
package final class SignedInDevice: Sendable {
    let id: String
    let owner: String
    private let secretHash: [UInt8]
    /// When a request last came from it.
    let lastUsed = Mutex(ContinuousClock.now)
    /// When the cloud last said it is signed in (and the learner's store was brought up to date).
    private let lastChecked = Mutex<ContinuousClock.Instant?>(nil)
    /// The address network its last request came from.
    private let lastNetwork = Mutex<String?>(nil)

    /// Whether `network` is not where its last request came from (remembered from now).
    func movedTo(_ network: String) -> Bool {
        lastNetwork.withLock { last in
            defer { last = network }
            return last != network
        }
    }

    init(id: String, owner: String, secretHash: [UInt8]) {
        self.id = id
        self.owner = owner
        self.secretHash = secretHash
    }

    /// Whether the cloud was asked about this device less than `duration` ago.
    func checked(within duration: Duration) -> Bool {
        lastChecked.withLock { $0.map { ContinuousClock.now - $0 < duration } ?? false }
    }

    /// The cloud said at `instant` (or later) that this device is signed in.
    func markChecked(at instant: ContinuousClock.Instant) {
        lastChecked.withLock { checked in
            if checked.map({ $0 < instant }) ?? true { checked = instant }
        }
    }

    /// Whether `secret` is this device's (compared in time that depends on the length only).
    func accepts(_ secret: String) -> Bool {
        Secrets.sameBytes(SHA256.hash(Array(secret.utf8)), secretHash)
    }
}

/// A call's device: its key (for as long as the call lasts; every cloud function it runs
/// checks it) and its learner.
package struct Caller: Sendable {
    package let key: DeviceKey
    package let owner: String
    /// What this server keeps of the device (when it last asked the cloud about it).
    let device: SignedInDevice
}
