import VocabCore

/// Every call of Anki's sync protocol (version 11) a Vocab server answers, by the address an
/// Anki app posts to: `{base}sync/METHOD` for the collection, `{base}msync/METHOD` for media,
/// the base being `/anki/` on the server (the address a learner types into the app).
public enum AnkiSyncCall: String, CaseIterable, Sendable {
    case hostKey, meta, start, applyGraves, applyChanges, chunk, applyChunk, sanityCheck2, finish, abort, upload, download
    case mediaBegin = "begin", mediaChanges, uploadChanges, downloadFiles, mediaSanity

    /// Where every call's address starts.
    public static let base = "/anki/"

    /// Whether it is one of media's calls (`msync/…`).
    public var isMedia: Bool {
        switch self {
        case .mediaBegin, .mediaChanges, .uploadChanges, .downloadFiles, .mediaSanity: return true
        default: return false
        }
    }

    /// Its path on the server.
    public var path: String { Self.base + (isMedia ? "msync/" : "sync/") + rawValue }

    /// The call a path names; nil for a path under the base that names none.
    public static func of(path: String) -> AnkiSyncCall? { byPath[path] }

    private static let byPath = Dictionary(uniqueKeysWithValues: allCases.map { ($0.path, $0) })

    /// Its name as metrics count it: `anki_` and the case's name in snake case (`anki_media_begin`).
    public var metricName: String { "anki_" + String(describing: self).snakeCased }
}
