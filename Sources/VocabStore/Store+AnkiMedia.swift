import VocabCore

/// The media files of the learner's Anki apps (schema version 17): names with their contents'
/// SHA-1 and update numbers, the contents stored once each by SHA-1.
extension Store {
    /// The update number of the latest change (0 before any).
    public func ankiMediaUsn() throws -> Int64 {
        try guarded { try database.integer("SELECT coalesce(max(usn), 0) FROM anki_media") }
    }

    /// The changes after `usn`, oldest first, at most `limit`.
    public func ankiMediaChanges(after usn: Int64, limit: Int) throws -> [AnkiMediaEntry] {
        try guarded {
            try database.query("SELECT name, sha1, usn FROM anki_media WHERE usn > ? ORDER BY usn LIMIT ?",
                               [.integer(usn), .integer(Int64(limit))]) { AnkiMediaEntry(name: $0.text(0), sha1: $0.text(1), usn: $0.int(2)) }
        }
    }

    /// Takes what an app sent, each change at an update number of its own (a file the same as
    /// held, or a deletion of one not held, changes nothing); returns the number after them.
    /// A content no name holds any more is dropped.
    public func applyAnkiMedia(_ uploads: [AnkiMediaUpload]) throws -> Int64 {
        try write {
            var usn = try ankiMediaUsn()
            for upload in uploads {
                let sha1 = upload.sha1
                let held = try database.first("SELECT sha1 FROM anki_media WHERE name = ?", [.text(upload.name)]) { $0.text(0) } ?? ""
                if held == sha1 { continue }
                usn += 1
                if let data = upload.data {
                    try database.run("INSERT OR IGNORE INTO anki_media_files (sha1, data) VALUES (?, ?)", [.text(sha1), .blob(data)])
                }
                try database.run("INSERT OR REPLACE INTO anki_media (name, sha1, size, usn) VALUES (?, ?, ?, ?)",
                                 [.text(upload.name), .text(sha1), .integer(Int64(upload.data?.count ?? 0)), .integer(usn)])
                if !held.isEmpty {
                    try database.run("DELETE FROM anki_media_files WHERE sha1 = ? AND NOT EXISTS (SELECT 1 FROM anki_media WHERE sha1 = ?)",
                                     [.text(held), .text(held)])
                }
            }
            return usn
        }
    }

    /// The contents of the files named, in order: up to the first not held (deleted or
    /// unknown), and no further than `bytes` in all (always the first).
    public func ankiMediaFiles(_ names: [String], most bytes: Int) throws -> [(name: String, data: [UInt8])] {
        try guarded {
            var files: [(name: String, data: [UInt8])] = [], total = 0
            for name in names {
                guard let size = try database.first("SELECT size FROM anki_media WHERE name = ? AND sha1 <> ''", [.text(name)], { $0.int(0) }),
                      files.isEmpty || total + Int(size) <= bytes,
                      let data = try database.first("""
                          SELECT f.data FROM anki_media m JOIN anki_media_files f ON f.sha1 = m.sha1 WHERE m.name = ?
                          """, [.text(name)], { $0.blob(0) }) ?? nil else { break }
                files.append((name, data))
                total += data.count
            }
            return files
        }
    }

    /// How many files are held (deletions not counted).
    public func ankiMediaCount() throws -> Int {
        try guarded { Int(try database.integer("SELECT count(*) FROM anki_media WHERE sha1 <> ''")) }
    }
}
