/// The media files of a learner's Anki apps, as values every layer passes: kept by the store
/// or the cloud, read and written by Anki's media sync.

/// A media file's entry as Anki's media sync lists it: its name, the SHA-1 of its content in
/// hex ("" once deleted) and the update number it was written at.
public struct AnkiMediaEntry: Equatable, Sendable {
    public var name: String
    public var sha1: String
    public var usn: Int64

    public init(name: String, sha1: String, usn: Int64) {
        self.name = name
        self.sha1 = sha1
        self.usn = usn
    }
}

/// A media file an app sent: its name and content, or nil content for one it deleted.
public struct AnkiMediaUpload: Equatable, Sendable {
    public var name: String
    public var data: [UInt8]?

    public init(name: String, data: [UInt8]?) {
        self.name = name
        self.data = data
    }

    /// Its content's SHA-1 in hex ("" for a deletion).
    public var sha1: String { data.map(SHA1.hex) ?? "" }
}
