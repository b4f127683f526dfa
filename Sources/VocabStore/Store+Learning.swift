import FoundationEssentials
import VocabCore

extension Store {
    /// The stored learning settings (the defaults when none were saved, or when what is stored
    /// is not a valid set: a store never schedules with broken parameters).
    public func learningSettings() throws -> LearningSettings {
        try guarded {
            try database.first("SELECT parameters, retention, changed_at FROM learning_settings WHERE id = 1") { row in
                let parameters = row.isNull(0) ? nil : Self.decodeParameters(row.text(0))
                let retention = row.double(1)
                return LearningSettings(parameters: parameters,
                                        desiredRetention: LearningSettings.retentionRange.contains(retention) ? retention : LearningSettings.defaultRetention,
                                        changedAt: row.int(2) > 0 ? Timestamp(milliseconds: row.int(2)) : nil)
            } ?? LearningSettings()
        }
    }

    /// The scheduler every review and schedule of this store uses.
    public func scheduler() throws -> FSRSScheduler { try learningSettings().scheduler }

    /// Saves new settings and re-derives every word's schedule from its log with them, in one
    /// transaction; queued for the cloud. Returns how many words were rescheduled.
    @discardableResult
    public func saveLearningSettings(parameters: [Double]?, desiredRetention: Double, at time: Timestamp) throws -> Int {
        if let parameters { precondition(FSRSParameterBounds.areValid(parameters), "parameters out of their limits") }
        precondition(LearningSettings.retentionRange.contains(desiredRetention), "retention out of range")
        return try write {
            try storeLearningSettings(LearningSettings(parameters: parameters, desiredRetention: desiredRetention, changedAt: time),
                                      device: try deviceId())
            try markForPush(kind: "settings", id: Self.learningSettingsId)
            return try rebuildAllSchedules()
        }
    }

    /// The id the settings travel under in the cloud (one record per account).
    public static let learningSettingsId = UUID(uuidString: "00000000-0000-8000-8000-00000000f5a5") ?? UUID()

    func storeLearningSettings(_ settings: LearningSettings, device: String) throws {
        try database.run("""
            INSERT OR REPLACE INTO learning_settings (id, parameters, retention, changed_at, device) VALUES (1, ?, ?, ?, ?)
            """, [settings.parameters.map { .text(Self.encodeParameters($0)) } ?? .null, .real(settings.desiredRetention),
                  .integer(settings.changedAt?.milliseconds ?? 0), .text(device)])
    }

    /// The stored settings' change time and device, for the sync's newest-wins rule.
    func learningSettingsStamp() throws -> (milliseconds: Int64, device: String)? {
        try database.first("SELECT changed_at, device FROM learning_settings WHERE id = 1") { ($0.int(0), $0.text(1)) }
    }

    /// The settings as they travel to the cloud; nil when none were ever saved.
    func learningSettingsBody() throws -> String? {
        guard let stamp = try learningSettingsStamp() else { return nil }
        let settings = try learningSettings()
        return JSONValue.object([
            ("parameters", settings.parameters.map { .string(Self.encodeParameters($0)) } ?? .null),
            ("retention", .double(settings.desiredRetention)),
            ("changedAt", .int(stamp.milliseconds)), ("device", .string(stamp.device)),
        ]).compact
    }

    /// Takes pulled settings when they are newer than this store's (by change time, then
    /// device id, so every device settles on the same ones). Returns whether they were taken.
    func applyLearningSettings(_ record: SyncRecord) throws -> Bool {
        guard !record.deleted else { return false }
        guard let body = SyncBodies.parse(record.body), let changedAt = body["changedAt"]?.int64Value,
              let device = body["device"]?.stringValue, let retention = body["retention"]?.doubleValue else {
            throw MalformedRecord(reason: "settings without a change time, device or retention")
        }
        var parameters: [Double]?
        if let text = body["parameters"]?.stringValue {
            guard let decoded = Self.decodeParameters(text) else { throw MalformedRecord(reason: "parameters out of their limits") }
            parameters = decoded
        }
        guard LearningSettings.retentionRange.contains(retention) else { throw MalformedRecord(reason: "retention \(retention) out of range") }
        if let local = try learningSettingsStamp(), (local.milliseconds, local.device) >= (changedAt, device) { return false }
        try storeLearningSettings(LearningSettings(parameters: parameters, desiredRetention: retention,
                                                   changedAt: Timestamp(milliseconds: changedAt)), device: device)
        return true
    }

    static func encodeParameters(_ parameters: [Double]) -> String {
        JSONValue.array(parameters.map { .double($0) }).compact
    }

    /// The parameters of `encodeParameters`' text (read number by number: Foundation's JSON
    /// reader can round a double's last digit); nil unless they are a valid set.
    static func decodeParameters(_ text: String) -> [Double]? {
        let trimmed = text.trimmingSpaces()
        guard trimmed.hasPrefix("["), trimmed.hasSuffix("]") else { return nil }
        let numbers = trimmed.dropFirst().dropLast().split(separator: ",").map { Double($0.trimmingSpaces()) }
        let values = numbers.compactMap { $0 }
        return values.count == numbers.count && FSRSParameterBounds.areValid(values) ? values : nil
    }

    /// Replays every word's log with the store's scheduler and stores the schedules (inside
    /// a write). Returns how many words have a schedule.
    @discardableResult
    func rebuildAllSchedules() throws -> Int {
        let scheduler = try scheduler()
        var pending: [(word: Int64, schedule: Schedule, first: Timestamp)] = []
        var rebuilt = 0
        try forEachWordLog(inBooks: nil) { wordKey, log in
            guard let schedule = scheduler.replay(log), let first = log.first else { return }
            pending.append((wordKey, schedule, first.at))
            rebuilt += 1
            if pending.count >= 1_024 {
                try storeSchedules(pending)
                pending.removeAll(keepingCapacity: true)
            }
        }
        try storeSchedules(pending)
        return rebuilt
    }

    /// Every reviewed word's log (of the books named, or all), as FSRS reads it.
    public func reviewSequences(inBooks bookIds: [UUID]?) throws -> [FSRSReviewSequence] {
        try guarded {
            var sequences: [FSRSReviewSequence] = []
            try forEachWordLog(inBooks: bookIds) { _, log in sequences.append(FSRSReviewSequence(log: log)) }
            return sequences
        }
    }

    /// Calls `body` with each word's key and log, oldest review first, one word at a time (the
    /// log is read in word order through the reviews' index).
    private func forEachWordLog(inBooks bookIds: [UUID]?, _ body: (Int64, [(rating: Rating, at: Timestamp)]) throws -> Void) throws {
        var currentWord: Int64?
        var log: [(rating: Rating, at: Timestamp)] = []
        let (condition, arguments) = bookCondition(bookIds)
        try database.forEachRow("""
            SELECT r.word, r.rating, r.reviewed_at FROM reviews r JOIN words w ON w.key = r.word
            WHERE 1 = 1\(condition) ORDER BY r.word, r.reviewed_at, r.id
            """, arguments) { row in
            let wordId = row.int(0)
            if wordId != currentWord {
                if let currentWord, !log.isEmpty { try body(currentWord, log) }
                currentWord = wordId
                log.removeAll(keepingCapacity: true)
            }
            if let rating = Rating(rawValue: Int(row.int(1))) { log.append((rating, row.timestamp(2))) }
        }
        if let currentWord, !log.isEmpty { try body(currentWord, log) }
    }
}
