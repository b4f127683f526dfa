import FoundationEssentials
import VocabAnki
import VocabCloudAPI
import VocabCore
import VocabStore
import VocabSystem

/// How a server of one learner answers an Anki app's slow calls as soon as what the app sent is
/// kept, as Anki's own server answers once its file is in place: a sync's end once its objects
/// are (bringing them into the words is left, `AnkiPendingWork`), a full upload once its file is
/// in `uploadFolder` (taking it in place of the kept collection is left). What is left is done
/// by `settleSoon` right after the answer, and before anything else touches the collection
/// (every `AnkiCollections.kept` given the deferral does it first); a server stopped before
/// does it when it starts again.
public struct AnkiDeferral: Sendable {
    /// Where an upload's file waits to be taken (mode 0700).
    public let uploadFolder: String
    /// Does what is left, off the request.
    public let settleSoon: @Sendable () -> Void

    public init(uploadFolder: String, settleSoon: @escaping @Sendable () -> Void) {
        self.uploadFolder = uploadFolder
        self.settleSoon = settleSoon
    }

    /// The folder beside the store of `pool` where uploads wait (`anki-upload`).
    public static func uploadFolder(of pool: LibraryPool) -> String {
        FilePath.folder(of: pool.path) + "/anki-upload"
    }

    /// The upload folder, made when missing; nil when it cannot be (then an upload is taken
    /// before its answer, as on a cloud).
    public func madeUploadFolder() -> String? {
        do {
            try FileManager.default.createDirectory(atPath: uploadFolder, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
            return uploadFolder
        } catch {
            return nil
        }
    }
}

extension AnkiCollections {
    /// Does what an app's call left (on the writer, which the caller holds): a sync's changes
    /// brought into the words, an upload taken in place of the kept collection.
    static func settlePending(_ store: Store, account: String, deferral: AnkiDeferral) throws {
        try reflectLeft(store, account: account)
        try takeUploadLeft(store, account: account, uploadFolder: deferral.uploadFolder)
    }

    /// A sync's changes left past its answer brought into the words now (on the writer). A word
    /// the learner changed since they were kept keeps his change (the later wins, as Anki's rule
    /// has it), and goes back to the app at its next sync.
    static func reflectLeft(_ store: Store, account: String) throws {
        guard let pending = try store.ankiPendingWork(), pending.kind == .reflect else { return }
        let kept = AnkiKeptCollection(store: store, account: account, now: pending.at)
        try store.transaction {
            try kept.reflect(AnkiSyncSession(key: "", serverUsn: pending.usn, clientUsn: 0, clientNewer: false), keptAt: pending.at)
            try store.setAnkiPendingWork(nil)
        }
    }

    /// An upload left past its answer taken now in place of the kept collection (on the writer):
    /// the store backed up first, as an upload taken at once is; the app's next sync told what it
    /// deleted. An upload whose file can no longer be read is dropped: the app still holds it,
    /// and its next sync finds the collections apart.
    static func takeUploadLeft(_ store: Store, account: String, uploadFolder: String) throws {
        guard let pending = try store.ankiPendingWork(), pending.kind == .upload else { return }
        let kept = AnkiKeptCollection(store: store, account: account, now: pending.at)
        let path = uploadFolder + "/" + (pending.file ?? "")
        let collection: AnkiUploadedCollection
        do {
            collection = try AnkiUploadedCollection(kept: path)
        } catch is AnkiPackageError {
            try store.setAnkiPendingWork(nil)
            try? FileManager.default.removeItem(atPath: path)
            return
        }
        let backup = try store.takeBackup(reason: AccountBackups.beforeAnkiUpload, at: pending.at).0
        try kept.replace(with: collection) { doomed in
            try store.setAnkiNotice(UploadNotice(deletedWords: doomed.count, backupTakenAt: backup.takenAt).text)
        }
        try? FileManager.default.removeItem(atPath: path)
    }

    /// Does what an app's call left, if anything (`settlePending`).
    public static func settle(_ pool: LibraryPool, account: String, deferral: AnkiDeferral) throws {
        try pool.write { library in try settlePending(library.store, account: account, deferral: deferral) }
    }

    /// A full upload on a server that defers (`AnkiDeferral`): `collection`'s file is kept in
    /// the upload folder and left to be taken (`settlePending`), in place of an upload left
    /// before and after what a sync left. Returns once both are kept (through a crash).
    public static func keepUpload(_ pool: LibraryPool, account: String, now: Timestamp, collection: AnkiUploadedCollection,
                                  deferral: AnkiDeferral) throws {
        let name = "upload-\(UUID().lowercaseText).anki2"
        let path = deferral.uploadFolder + "/" + name
        try collection.keep(as: path)
        let replaced: String?
        do {
            replaced = try pool.write { library -> String? in
                let store = library.store
                let before = try store.ankiPendingWork()
                try reflectLeft(store, account: account)
                try store.setAnkiPendingWork(AnkiPendingWork(kind: .upload, at: now, file: name))
                return before?.kind == .upload ? before?.file : nil
            }
        } catch {
            try? FileManager.default.removeItem(atPath: path)
            throw error
        }
        if let replaced { try? FileManager.default.removeItem(atPath: deferral.uploadFolder + "/" + replaced) }
    }

    /// Removes from the upload folder what no left work names (an upload cut short by a stop,
    /// one replaced), but nothing younger than ten minutes (an upload being unpacked).
    public static func removeStrayUploads(_ pool: LibraryPool, deferral: AnkiDeferral) throws {
        let named = try pool.read { library in try library.store.ankiPendingWork()?.file }
        for name in (try? FileManager.default.contentsOfDirectory(atPath: deferral.uploadFolder)) ?? [] where name != named {
            let path = deferral.uploadFolder + "/" + name
            if (FileStatus.secondsSinceChange(of: path) ?? 0) > 600 { try? FileManager.default.removeItem(atPath: path) }
        }
    }
}
