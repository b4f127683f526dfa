import FoundationEssentials
import VocabCloudAPI
import VocabCore

/// The cloud's functions for the backups of the account of the device `device` (`vocab.backup_…`,
/// version 12). A package crosses as base64 (the connection speaks text).
extension AnkiCloudChannel {
    /// Keeps `package` (the words an upload is about to delete) under `id`; kept again under
    /// the same id, it is replaced. Past the account's byte cap the cloud refuses it (53400).
    public func keepBackup(id: UUID, reason: String, words: Int, package: [UInt8]) throws {
        try connection.execute("SELECT vocab.backup_keep($1, $2, $3::uuid, $4, $5::integer, $6)", [
            device.id, device.secret, id.lowercaseText, reason, String(words), Data(package).base64EncodedString(),
        ])
    }

    /// The account's backups, newest first.
    public func backups() throws -> [AccountBackup] {
        try connection.execute("SELECT id::text, taken::text, reason, words::text, bytes::text FROM vocab.backups($1, $2)",
                               [device.id, device.secret]).compactMap { row in
            guard row.count == 5, let id = row[0], let taken = row[1].flatMap({ Int64($0) }), let reason = row[2],
                  let words = row[3].flatMap({ Int($0) }), let bytes = row[4].flatMap({ Int($0) }) else { return nil }
            return AccountBackup(id: id, taken: taken, reason: reason, words: words, bytes: bytes)
        }
    }

    /// One backup's package; nil when the account has none of that id.
    public func backupPackage(id: UUID) throws -> [UInt8]? {
        let rows = try connection.execute("SELECT package FROM vocab.backup_package($1, $2, $3::uuid)",
                                          [device.id, device.secret, id.lowercaseText])
        guard let text = rows.first?.first ?? nil else { return nil }
        guard let data = Data(base64Encoded: text, options: .ignoreUnknownCharacters) else {  // lines of 76
            throw CloudError.serverError("the cloud answered a backup that is not base64")
        }
        return Array(data)
    }
}
