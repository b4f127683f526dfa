import FoundationEssentials
import VocabCore
import VocabStore

/// The first-card review logs of a run of notes, as Vocab review records: what the import's
/// reviews thread reads from the collection (over a connection of its own) and hands over.
struct NoteLogBatch: Sendable {
    /// One note's log; its records belong to the word the note's guid stands for.
    struct NoteLog: Sendable {
        var noteId: Int64
        var guid: String
        var wordId: UUID
        var records: [ReviewRecord]
    }

    var notes: [NoteLog] = []
    /// Reviews of the notes' other cards passed over.
    var otherCards = 0
    /// Reviews of the log gone through for this batch: its notes' records and `otherCards`.
    var reviewsRead = 0

    /// Reads every note's first-card log from the collection at `path` (unpacked from the
    /// package at `packagePath`), handing over batches of `batchSize` notes; stops when `hand`
    /// says the reader has finished.
    static func read(collectionAt path: String, of packagePath: String, batchSize: Int, hand: (NoteLogBatch) -> Bool) throws {
        try AnkiPackageError.readingCollection(of: packagePath) {
            try read(AnkiPackage.openCollection(at: path), batchSize: batchSize, hand: hand)
        }
    }

    private static func read(_ database: Database, batchSize: Int, hand: (NoteLogBatch) -> Bool) throws {
        var batch = NoteLogBatch()
        var current: NoteLog?
        func closeNote() throws {
            if let note = current, !note.records.isEmpty { batch.notes.append(note) }
            current = nil
            if batch.notes.count >= batchSize {
                guard hand(batch) else { throw Stopped() }
                batch = NoteLogBatch()
            }
        }
        do {
            try AnkiCollection.forEachReview(in: database) { review in
                if current?.noteId != review.noteId {
                    try closeNote()
                    current = NoteLog(noteId: review.noteId, guid: review.noteGUID,
                                      wordId: AnkiNoteRecords.wordId(guid: review.noteGUID), records: [])
                }
                batch.reviewsRead += 1
                guard review.ofFirstCard else {
                    batch.otherCards += 1
                    return
                }
                guard var note = current, let rating = Rating(rawValue: review.ease) else { return }
                current = nil  // the records grow in place, not in a copy
                note.records.append(ReviewRecord(id: UUID.derived(fromAnkiReview: review.id, noteGUID: note.guid),
                                                 wordId: note.wordId, reviewedAt: Timestamp(milliseconds: review.id),
                                                 rating: rating, durationMs: review.time, source: .study))
                current = note
            }
            try closeNote()
            _ = hand(batch)  // the rest, and the counts of the log's end
        } catch is Stopped {
            return
        }
    }

    private struct Stopped: Error {}
}
