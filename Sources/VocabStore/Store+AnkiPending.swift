import VocabCore

/// What an Anki app's call left to do after it was answered, kept with the objects it is
/// about (one commit): the app's objects are the store's from then on, and only bringing them
/// into the words waits. A server of one learner answers a sync's end and a full upload as
/// soon as what the app sent is kept, as Anki's own server does, and does the rest right after.
public struct AnkiPendingWork: Equatable, Sendable {
    public enum Kind: String, Sendable {
        /// A normal sync's objects (those at `usn` the app sent) into the words.
        case reflect
        /// A full upload (the collection file named `file`) in place of the kept collection.
        case upload
    }

    public var kind: Kind
    /// The sync's number (a reflect's).
    public var usn: Int64
    /// When the call was answered: the time its changes are made at.
    public var at: Timestamp
    /// The name of the kept file (an upload's).
    public var file: String?

    public init(kind: Kind, usn: Int64 = 0, at: Timestamp, file: String? = nil) {
        self.kind = kind
        self.usn = usn
        self.at = at
        self.file = file
    }
}

extension Store {
    /// The work an Anki app's last call left, if any.
    public func ankiPendingWork() throws -> AnkiPendingWork? {
        try guarded {
            try database.first("SELECT work, usn, at, file FROM anki_pending") { row -> AnkiPendingWork? in
                guard let kind = AnkiPendingWork.Kind(rawValue: row.text(0)) else { return nil }
                return AnkiPendingWork(kind: kind, usn: row.int(1), at: Timestamp(milliseconds: row.int(2)),
                                       file: row.isNull(3) ? nil : row.text(3))
            } ?? nil
        }
    }

    /// Keeps `work` as what is left to do (nil: nothing is), in place of what was.
    public func setAnkiPendingWork(_ work: AnkiPendingWork?) throws {
        try ankiWrite {
            try database.execute("DELETE FROM anki_pending")
            guard let work else { return }
            try database.run("INSERT INTO anki_pending VALUES (?, ?, ?, ?)", [
                .text(work.kind.rawValue), .integer(work.usn), .integer(work.at.milliseconds), work.file.map(SQLValue.text) ?? .null,
            ])
        }
    }
}
