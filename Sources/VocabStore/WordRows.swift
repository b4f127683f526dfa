import CSQLite
import VocabCore

/// A word's fields read in place from a row of `Columns.word`, as the store keeps them: text
/// and ids as UTF-8 bytes, times as milliseconds, flags as 0 or 1. Valid only inside the
/// closure that is given it — for output of many words written as bytes, without a `Word`
/// (and its strings and ids) made of each.
public struct WordFieldsRow {
    let row: Row
    let indexes: [Int32]

    /// The bytes of field `field` (an index into `WordFields.all`): text, or an id's text.
    public func bytes(_ field: Int) -> UnsafeBufferPointer<UInt8> {
        let column = indexes[field]
        guard let pointer = sqlite3_column_text(row.handle, column) else { return UnsafeBufferPointer(start: nil, count: 0) }
        return UnsafeBufferPointer(start: pointer, count: Int(sqlite3_column_bytes(row.handle, column)))
    }

    /// The number in field `field`: a time's milliseconds, or a flag's 0/1.
    public func integer(_ field: Int) -> Int64 {
        sqlite3_column_int64(row.handle, indexes[field])
    }
}

extension Store {
    /// `forEachWord`, handing each word's fields in place (`WordFieldsRow`) instead of a `Word`.
    public func forEachWordRow(_ filter: WordFilter = WordFilter(), limit: Int? = nil, offset: Int = 0,
                               _ body: (WordFieldsRow) throws -> Void) throws {
        let (sql, arguments) = listQuery(filter, limit: limit, offset: offset)
        var indexes: [Int32]?
        try guarded {
            try database.forEachRow(sql, arguments) { row in
                if indexes == nil { indexes = try row.columns(Columns.wordNames) }
                try body(WordFieldsRow(row: row, indexes: indexes ?? []))
            }
        }
    }
}
