import FoundationEssentials
import VocabCore

/// One object or grave of the kept collection as the cloud keeps it: its kind (`grave:note`…
/// for a grave), its id, and its row as text the cloud never looks into (nil: removed).
public struct AnkiKeptRow: Equatable, Sendable {
    public var kind: String
    public var id: String
    public var row: String?

    public init(kind: String, id: String, row: String?) {
        self.kind = kind
        self.id = id
        self.row = row
    }
}

/// What a call changed in the kept collection: its rows, and its state when that changed.
public struct AnkiKeptChanges: Sendable {
    public var rows: [AnkiKeptRow] = []
    /// The collection's state as text (`ankiStateText`), when it changed.
    public var state: String?

    public var isEmpty: Bool { rows.isEmpty && state == nil }
}

/// A cloud's server keeps a copy of the cloud's kept collection in the learner's store: it
/// takes what changed since the version it holds, and hands on what a call changed (tracked by
/// triggers of this connection's own, made only where a copy is kept; a plain list, read without
/// its repeats: a constraint there would meet the conflict rule of the statement that fired it).
/// An object a write displaces as a word's mirror (its OR REPLACE deletes that row without firing
/// a delete trigger) is noted by the triggers before the write, and handed on as removed.
extension Store {
    /// The cloud's version this copy holds (0: none yet).
    public func ankiCopyVersion() throws -> Int64 {
        try guarded { try database.first("SELECT version FROM anki_collection") { $0.int(0) } ?? 0 }
    }

    /// Starts tracking the kept collection's changes on this connection (from nothing).
    public func trackAnkiChanges() throws {
        // The other object a write of NEW, with its source, displaces as that word's mirror.
        let displaced = "SELECT kind, id FROM main.anki_objects WHERE kind = NEW.kind AND source = NEW.source AND id <> NEW.id"
        try guarded {
            try database.execute("""
                CREATE TEMP TABLE IF NOT EXISTS anki_touched (kind TEXT NOT NULL, id TEXT NOT NULL);
                CREATE TEMP TRIGGER IF NOT EXISTS anki_touched_object_insert AFTER INSERT ON main.anki_objects
                BEGIN INSERT INTO anki_touched VALUES (NEW.kind, NEW.id); END;
                CREATE TEMP TRIGGER IF NOT EXISTS anki_touched_object_update AFTER UPDATE ON main.anki_objects
                BEGIN INSERT INTO anki_touched VALUES (NEW.kind, NEW.id); END;
                CREATE TEMP TRIGGER IF NOT EXISTS anki_touched_object_delete AFTER DELETE ON main.anki_objects
                BEGIN INSERT INTO anki_touched VALUES (OLD.kind, OLD.id); END;
                CREATE TEMP TRIGGER IF NOT EXISTS anki_touched_object_displaced BEFORE INSERT ON main.anki_objects
                WHEN NEW.source IS NOT NULL
                BEGIN INSERT INTO anki_touched \(displaced); END;
                CREATE TEMP TRIGGER IF NOT EXISTS anki_touched_mirror_displaced BEFORE UPDATE OF source ON main.anki_objects
                WHEN NEW.source IS NOT NULL
                BEGIN INSERT INTO anki_touched \(displaced); END;
                CREATE TEMP TRIGGER IF NOT EXISTS anki_touched_grave AFTER INSERT ON main.anki_graves
                BEGIN INSERT INTO anki_touched VALUES ('grave:' || NEW.kind, NEW.id); END;
                CREATE TEMP TRIGGER IF NOT EXISTS anki_touched_collection_insert AFTER INSERT ON main.anki_collection
                BEGIN INSERT INTO anki_touched VALUES ('state', ''); END;
                CREATE TEMP TRIGGER IF NOT EXISTS anki_touched_collection_update AFTER UPDATE ON main.anki_collection
                BEGIN INSERT INTO anki_touched VALUES ('state', ''); END;
                CREATE TEMP TRIGGER IF NOT EXISTS anki_touched_session_insert AFTER INSERT ON main.anki_session
                BEGIN INSERT INTO anki_touched VALUES ('state', ''); END;
                CREATE TEMP TRIGGER IF NOT EXISTS anki_touched_session_update AFTER UPDATE ON main.anki_session
                BEGIN INSERT INTO anki_touched VALUES ('state', ''); END;
                CREATE TEMP TRIGGER IF NOT EXISTS anki_touched_session_delete AFTER DELETE ON main.anki_session
                BEGIN INSERT INTO anki_touched VALUES ('state', ''); END;
                DELETE FROM anki_touched;
                """)
        }
    }

    /// What changed since tracking began (or since last taken), as the cloud keeps it.
    public func takeAnkiChanges() throws -> AnkiKeptChanges {
        try guarded {
            var changes = AnkiKeptChanges()
            let touched = try database.query("SELECT DISTINCT kind, id FROM anki_touched ORDER BY kind, id") { ($0.text(0), $0.text(1)) }
            for (kind, id) in touched {
                if kind == "state" {
                    changes.state = try ankiStateText()
                } else if kind.hasPrefix("grave:") {
                    let usn = try database.first("SELECT usn FROM anki_graves WHERE kind = ? AND id = ?",
                                                 [.text(String(kind.dropFirst(6))), .integer(Int64(id) ?? 0)]) { $0.int(0) }
                    changes.rows.append(AnkiKeptRow(kind: kind, id: id, row: usn.map { JSONValue.array([.int($0)]).compact }))
                } else if let objectKind = AnkiObjectKind(rawValue: kind) {
                    let object = try ankiObject(objectKind, id: id)
                    changes.rows.append(AnkiKeptRow(kind: kind, id: id, row: object.map(Self.keptRow)))
                }
            }
            try database.run("DELETE FROM anki_touched")
            return changes
        }
    }

    /// Takes the cloud's rows and state (at `version`) into the copy; what it takes is not a
    /// change of this call's.
    public func applyAnkiRows(_ rows: [AnkiKeptRow], state: String?, version: Int64) throws {
        try write {
            // A copy new here: this store's words were written before it noted any.
            if try ankiCopyVersion() == 0 { try database.run("INSERT INTO anki_changed VALUES ('word', '*')") }
            for row in rows {
                if row.kind.hasPrefix("grave:") {
                    let kind = String(row.kind.dropFirst(6))
                    if let usn = row.row.flatMap({ (try? JSONParser.parse($0))?.arrayValue?.first?.int64Value }) {
                        try database.run("INSERT OR REPLACE INTO anki_graves VALUES (?, ?, ?)", [.text(kind), .integer(Int64(row.id) ?? 0), .integer(usn)])
                    } else {
                        try database.run("DELETE FROM anki_graves WHERE kind = ? AND id = ?", [.text(kind), .integer(Int64(row.id) ?? 0)])
                    }
                } else if let kind = AnkiObjectKind(rawValue: row.kind) {
                    if let text = row.row, let object = Self.keptObject(kind: kind, id: row.id, row: text) {
                        try putAnkiObject(object)
                    } else {
                        try removeAnkiObject(kind, id: row.id)
                    }
                }
            }
            try restoreAnkiState(state)
            try database.run("UPDATE anki_collection SET version = ?", [.integer(version)])
            try database.run("DELETE FROM anki_touched")
        }
    }

    /// Empties the copy (the cloud's collection went back past it: it is taken again whole).
    public func clearAnkiCopy() throws {
        try write {
            try database.execute("""
                DELETE FROM anki_objects; UPDATE anki_counts SET n = 0; DELETE FROM anki_graves; DELETE FROM anki_session; DELETE FROM anki_collection;
                DELETE FROM anki_download;
                """)
        }
    }

    /// Notes the cloud's version the copy now holds (not a change of the call's).
    public func setAnkiCopyVersion(_ version: Int64) throws {
        try write {
            try database.run("UPDATE anki_collection SET version = ?", [.integer(version)])
            try database.run("DELETE FROM anki_touched")
        }
    }

    /// The collection's stamps, the sync under way and the notice for the next, as one text.
    func ankiStateText() throws -> String? {
        guard let state = try ankiCollection() else { return nil }
        var members: [(String, JSONValue)] = [("c", .array([state.usn, state.modified, state.schema, state.created].map(JSONValue.int)))]
        if let session = try database.first("SELECT key, server_usn, client_usn, client_newer, chunked_kind, chunked_id FROM anki_session", [], {
            JSONValue.array([.string($0.text(0)), .int($0.int(1)), .int($0.int(2)), .bool($0.bool(3)), .string($0.text(4)), .string($0.text(5))])
        }) {
            members.append(("s", session))
        }
        if let notice = try ankiNotice() { members.append(("n", .string(notice))) }
        return JSONValue.object(members).compact
    }

    private func restoreAnkiState(_ text: String?) throws {
        guard let text, let state = try? JSONParser.parse(text), let stamps = state["c"]?.arrayValue, stamps.count == 4 else { return }
        let values = stamps.map { $0.int64Value ?? 0 }
        try saveAnkiCollection(AnkiCollectionState(usn: values[0], modified: values[1], schema: values[2], created: values[3]))
        try database.run("DELETE FROM anki_session")
        if let session = state["s"]?.arrayValue, session.count == 6 {
            try database.run("INSERT INTO anki_session VALUES (1, ?, ?, ?, ?, ?, ?)", [
                .text(session[0].stringValue ?? ""), .integer(session[1].int64Value ?? 0), .integer(session[2].int64Value ?? 0),
                .integer(session[3].boolValue == true ? 1 : 0), .text(session[4].stringValue ?? ""), .text(session[5].stringValue ?? ""),
            ])
        }
        try writeAnkiNotice(state["n"]?.stringValue)  // the cloud's: not a change of the call's (its tracking is cleared after)
    }

    /// An object as the cloud keeps it: `[usn, body, source, stamp]`.
    static func keptRow(_ object: AnkiObject) -> String {
        JSONValue.array([.int(object.usn), .string(object.body), object.source.map(JSONValue.string) ?? .null,
                         object.stamp.map(JSONValue.string) ?? .null]).compact
    }

    static func keptObject(kind: AnkiObjectKind, id: String, row: String) -> AnkiObject? {
        guard let values = (try? JSONParser.parse(row))?.arrayValue, values.count == 4, let usn = values[0].int64Value,
              let body = values[1].stringValue else { return nil }
        return AnkiObject(kind: kind, id: id, usn: usn, body: body, source: values[2].stringValue, stamp: values[3].stringValue)
    }
}
