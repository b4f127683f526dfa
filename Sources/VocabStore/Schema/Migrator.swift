/// Brings a database to the latest schema, or refuses it when it is not a Vocab store or was
/// written by a newer version of Vocab (never touching it in either case).
struct Migrator {
    let steps: [Migration]
    let applicationID: Int64

    init(steps: [Migration] = Migrations.steps, applicationID: Int64 = Migrations.applicationID) {
        self.steps = steps
        self.applicationID = applicationID
    }

    var latestVersion: Int64 { steps.last?.version ?? 0 }

    /// The page size of a store made from nothing, in bytes.
    static let newStorePageSize = 8192

    /// Checks the database's identity and applies every missing step, each in its own
    /// transaction. Returns the version the database had before.
    @discardableResult
    func migrate(_ database: Database, path: String, upTo target: Int64? = nil,
                 beforeUpgrade: (Int64) throws -> Void = { _ in }) throws -> Int64 {
        let found = try database.integer("PRAGMA application_id")
        let version = try database.integer("PRAGMA user_version")
        let objects = try database.integer("SELECT count(*) FROM sqlite_master")
        if found != applicationID {
            guard found == 0, version == 0, objects == 0 else { throw StoreError.notAVocabDatabase(path: path) }
        }
        guard version <= latestVersion else {
            throw StoreError.newerSchema(path: path, found: version, supported: latestVersion)
        }
        let goal = target ?? latestVersion
        if version > 0 && version < goal { try beforeUpgrade(version) }
        let due = steps.filter { $0.version > version && $0.version <= goal }
        // A new store takes pages twice SQLite's default: half the pages, writes and reads of
        // a bulk change, and shallower trees (a store made before keeps the size it has).
        if objects == 0 { try database.execute("PRAGMA page_size = \(Self.newStorePageSize)") }
        // A new store is made in one transaction (one journal and sync, not one per step); an
        // existing one moves a step per transaction, each kept once it is done.
        for batch in version == 0 ? [due] : due.map({ [$0] }) where !batch.isEmpty {
            try database.transaction {
                for step in batch { try database.execute(step.sql) }
                try database.execute("PRAGMA application_id = \(applicationID)")
                try database.execute("PRAGMA user_version = \(batch[batch.count - 1].version)")
            }
        }
        return version
    }
}
