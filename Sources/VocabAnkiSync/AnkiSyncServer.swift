import FoundationEssentials
import VocabAnki
import VocabCloudAPI
import VocabCore
import VocabSessions

/// One request of an Anki app, as the translator reads it from the HTTP server's.
public struct AnkiSyncExchange: Sendable {
    public var method: String
    public var path: String
    /// The `anki-sync` header, when sent.
    public var header: String?
    public var body: [UInt8]
    /// The address it came from.
    public var peer: String

    public init(method: String, path: String, header: String?, body: [UInt8], peer: String) {
        self.method = method
        self.path = path
        self.header = header
        self.body = body
        self.peer = peer
    }
}

/// What the translator answers.
public struct AnkiSyncReply: Sendable {
    public var status: Int
    public var headers: [(String, String)]
    public var body: [UInt8]
    /// A refusal's cause, as metrics count it.
    public var refusalCause: String?
    /// Runs once the answer is sent, or its connection is gone (what it held is given back then).
    public var whenDone: (@Sendable () -> Void)?

    public init(status: Int, headers: [(String, String)] = [], body: [UInt8] = [], refusalCause: String? = nil) {
        self.status = status
        self.headers = headers
        self.body = body
        self.refusalCause = refusalCause
    }
}

/// A learner an Anki app syncs for: his account's name (on a server of one learner, the
/// store's own id), his store, and where the collection his apps sync with is kept.
public struct AnkiLearner {
    public var account: String
    public var pool: LibraryPool
    /// Where the collection his apps sync with is kept when not in his store (a cloud: the store
    /// keeps a copy).
    public var cloud: (any AnkiCollectionCloud)?
    /// Where the file a full download sends is kept ready between downloads (nil: made for each).
    public var downloadFolder: String?
    /// A server of one learner's: a sync's end and a full upload answered once what the app sent
    /// is kept, the rest done right after (`AnkiDeferral`).
    public var deferral: AnkiDeferral?

    public init(account: String, pool: LibraryPool, cloud: (any AnkiCollectionCloud)? = nil, downloadFolder: String? = nil,
                deferral: AnkiDeferral? = nil) {
        self.account = account
        self.pool = pool
        self.cloud = cloud
        self.downloadFolder = downloadFolder
        self.deferral = cloud == nil ? deferral : nil
    }

    /// Where his apps' media files are kept: the cloud's, or his store's.
    public var media: any AnkiMediaKeeper { cloud?.media ?? AnkiStoreMedia(pool: pool) }
}

/// Who may sync, and with which store: the server's own sign-in (a cloud account's password,
/// or the pairing code of a server of one learner), its limits and its devices. An Anki app is
/// a device like any other: listed, revocable, signed out like the rest.
public protocol AnkiSyncAccounts: Sendable {
    /// Signs an Anki app in as a device labelled `label`; returns the key it keeps. Throws the
    /// refusal (a wrong password, too many tries, a cloud out of reach).
    func signIn(user: String, password: String, label: String, peer: String) throws -> String
    /// Runs `body` with the learner whose device `key` names, his store first brought up to date
    /// (as for any other device's write: waiting for another sync of his under way); throws the
    /// refusal when the key is not a signed-in device's.
    func serve(key: String, peer: String, _ body: (AnkiLearner) throws -> AnkiSyncReply) throws -> AnkiSyncReply
}

/// Anki's sync protocol (version 11) in front of a Vocab server's accounts: Anki desktop,
/// AnkiDroid and AnkiMobile sign in with the learner's Vocab account and download his books
/// as a collection. It translates; the rules (sign-in and its limits, the devices, the store
/// kept in step) are the accounts' (`AnkiSyncAccounts`), the collection's shape the session
/// layer's (`AnkiCollections`).
///
/// Every body is zstd, bounded once unpacked (`bodyBound`: a zstd bomb stops there). What the
/// app shows of a refusal is its HTTP status (403: sign in again; 5xx: try later), or for an
/// upload the text answered.
public final class AnkiSyncServer: Sendable {
    /// The sync protocol's version spoken.
    public static let version = 11
    /// The most a request's body may unpack to.
    public static let bodyBound = 8 << 20

    let accounts: any AnkiSyncAccounts
    let clock: any SessionClock

    public init(accounts: any AnkiSyncAccounts, clock: any SessionClock = SystemClock()) {
        self.accounts = accounts
        self.clock = clock
    }

    /// The most `call`'s body may unpack to: media files sent have their own bound.
    public static func bodyBound(_ call: AnkiSyncCall) -> Int {
        switch call {
        case .uploadChanges: return AnkiMediaBounds.uploadBytes
        case .upload: return AnkiMediaBounds.collectionBytes
        default: return bodyBound
        }
    }

    /// Whether a path is one of the protocol's (under `AnkiSyncCall.base`).
    public static func serves(path: String) -> Bool { path.hasPrefix(AnkiSyncCall.base) }

    /// Answers one request (on a server thread).
    public func answer(_ exchange: AnkiSyncExchange) -> AnkiSyncReply {
        do {
            return try route(exchange)
        } catch let refusal as Refusal {
            return Self.reply(refusal)
        } catch {
            return Self.reply(.somethingWentWrong)
        }
    }

    /// A refusal as the app reads it: its status (a device not signed in is Anki's 403, which
    /// asks the learner to sign in again) and when to try again.
    public static func reply(_ refusal: Refusal) -> AnkiSyncReply {
        let status = refusal.status == 401 ? 403 : refusal.status
        var headers = [("Content-Type", "text/plain; charset=utf-8")]
        if let wait = refusal.retryAfter { headers.append(("Retry-After", String(wait))) }
        return AnkiSyncReply(status: status, headers: headers, body: Array(refusal.message.utf8), refusalCause: refusal.caseName)
    }

    private func route(_ exchange: AnkiSyncExchange) throws -> AnkiSyncReply {
        guard let call = AnkiSyncCall.of(path: exchange.path) else { throw Refusal.noSuchPath(exchange.path) }
        guard exchange.method == "POST" else { throw Refusal.methodNotAllowed(exchange.method) }
        guard let header = exchange.header.flatMap(AnkiSyncWire.Header.parse) else { throw Refusal.ankiSyncVersion(nil) }
        guard header.v == Self.version else { throw Refusal.ankiSyncVersion(header.v) }
        if call == .hostKey { return try hostKey(try Self.unpack(exchange.body, bound: Self.bodyBound), header: header, peer: exchange.peer) }
        // Unpacked only for a signed-in app: a whole collection may unpack to far more than a
        // stranger should make the server hold.
        return try accounts.serve(key: header.k, peer: exchange.peer) { learner in
            // A whole collection is unpacked straight into its file, never held unpacked.
            var reply = call == .upload ? try upload(exchange.body, learner: learner)
                : try answer(call, body: try Self.unpack(exchange.body, bound: Self.bodyBound(call)), header: header, learner: learner)
            if let deferral = learner.deferral, call == .upload || call == .finish {
                let before = reply.whenDone
                reply.whenDone = {
                    before?()
                    deferral.settleSoon()
                }
            }
            return reply
        }
    }

    /// A call's JSON body (another shape: 400, nothing changed).
    static func request(_ body: [UInt8]) throws -> JSONValue {
        guard let value = try? JSONParser.parse(body) else { throw Refusal.ankiChangesUnreadable }
        return value
    }

    /// A body unpacked within `bound` (past it: 413; not zstd, or cut short: 400).
    private static func unpack(_ body: [UInt8], bound: Int) throws -> [UInt8] {
        do {
            return try Zstd.decompress(body, bound: bound)
        } catch {
            throw refusal(error)
        }
    }

    /// Why a body could not be unpacked, as the app is told.
    private static func refusal(_ failure: Zstd.Failure) -> Refusal {
        switch failure {
        case .tooLarge: return .requestTooLarge
        case .damaged: return .ankiBodyUnreadable
        case .cannotWrite: return .somethingWentWrong
        }
    }

    private func hostKey(_ body: [UInt8], header: AnkiSyncWire.Header, peer: String) throws -> AnkiSyncReply {
        guard let given = try? JSONDecoder().decode(AnkiSyncWire.HostKeyRequest.self, from: Data(body)) else {
            throw Refusal.signInBodyMissing
        }
        let key = try accounts.signIn(user: given.u, password: given.p, label: Self.label(client: header.c), peer: peer)
        return try Self.json(AnkiSyncWire.HostKeyAnswer(key: key))
    }

    /// A signed-in app's call.
    private func answer(_ call: AnkiSyncCall, body: [UInt8], header: AnkiSyncWire.Header, learner: AnkiLearner) throws -> AnkiSyncReply {
        switch call {
        case .mediaBegin, .mediaChanges, .uploadChanges, .downloadFiles, .mediaSanity:
            return try answerMedia(call, body: body, header: header, media: learner.media)
        default:
            return try answerKept(call, body: body, header: header, learner: learner)
        }
    }

    /// A full upload (its body as sent, zstd), which takes the place of the kept collection (on a
    /// server that defers, once kept: `AnkiDeferral`). The protocol answers it in plain text:
    /// "OK", or why not, which the app shows.
    private func upload(_ compressed: [UInt8], learner: AnkiLearner) throws -> AnkiSyncReply {
        // A server that defers keeps the file where it waits to be taken (none: taken at once).
        let uploadFolder = learner.deferral?.madeUploadFolder()
        do {
            let collection: AnkiUploadedCollection
            do {
                collection = try AnkiUploadedCollection(compressed: compressed, bound: Self.bodyBound(.upload), unpackingIn: uploadFolder)
            } catch let failure as Zstd.Failure {
                throw Self.refusal(failure)
            }
            if let deferral = learner.deferral, uploadFolder != nil {
                try AnkiCollections.keepUpload(learner.pool, account: learner.account, now: clock.now(), collection: collection,
                                               deferral: deferral)
            } else {
                try AnkiCollections.upload(learner.pool, account: learner.account, now: clock.now(), cloud: learner.cloud,
                                           collection: collection)
            }
            return try Self.compressed(Array("OK".utf8))
        } catch is AnkiPackageError {
            return try Self.compressed(Array(Refusal.ankiUploadDamaged.message.utf8))
        } catch let refusal as Refusal where refusal.status == 507 {
            return try Self.compressed(Array(refusal.message.utf8))
        }
    }

    /// A call answered from the collection kept for the learner (`AnkiKeptCollection`): the
    /// stamps, a download, a normal sync object by object as Anki's own server answers one.
    private func answerKept(_ call: AnkiSyncCall, body: [UInt8], header: AnkiSyncWire.Header, learner: AnkiLearner) throws -> AnkiSyncReply {
        let now = clock.now()
        func kept<T>(_ work: (AnkiKeptCollection) throws -> T) throws -> T {
            try AnkiCollections.kept(learner.pool, account: learner.account, now: now, cloud: learner.cloud,
                                     downloadFolder: learner.downloadFolder, deferral: learner.deferral, work)
        }
        func request() throws -> JSONValue { try Self.request(body) }
        let answer: JSONValue
        switch call {
        case .meta:
            let standing = try kept { try $0.standing() }
            return try meta(standing.stamps.modified, schema: standing.stamps.schema, usn: standing.stamps.usn, empty: standing.empty,
                            mediaUsn: try learner.media.usn(), message: standing.notice.map(Self.words) ?? "")
        case .download:
            let file = try kept { try $0.download() }
            return Self.reply(compressed: file.bytes, size: file.size)
        case .start: answer = try kept { try $0.start(key: header.s, try request()) }
        case .applyGraves: answer = try kept { try $0.applyGraves(key: header.s, try request()) }
        case .applyChanges: answer = try kept { try $0.applyChanges(key: header.s, try request()) }
        case .chunk: answer = try kept { try $0.chunk(key: header.s) }
        case .applyChunk: answer = try kept { try $0.applyChunk(key: header.s, try request()) }
        case .sanityCheck2: answer = try kept { try $0.sanityCheck(key: header.s, try request()) }
        case .finish: answer = try kept { try $0.finish(key: header.s) }
        case .abort: answer = try kept { try $0.abort() }
        case .hostKey, .upload, .mediaBegin, .mediaChanges, .uploadChanges, .downloadFiles, .mediaSanity:
            throw Refusal.methodNotAllowed(call.rawValue)  // answered before a learner is known, or above
        }
        return try Self.compressed(Array(answer.compact.utf8))
    }

    private func meta(_ modified: Int64, schema: Int64, usn: Int64, empty: Bool, mediaUsn: Int64, message: String) throws -> AnkiSyncReply {
        try Self.json(AnkiSyncWire.MetaAnswer(mod: modified, scm: schema, usn: usn, ts: clock.now().milliseconds / 1000, msg: message,
                                             cont: true, hostNum: 0, empty: empty, media_usn: mediaUsn))
    }

    /// What a full upload did, in the words the app shows at its next sync.
    static func words(_ notice: AnkiCollections.UploadNotice) -> String {
        let words = notice.deletedWords == 1 ? "1 word it did not hold was" : "\(notice.deletedWords) words it did not hold were"
        let them = notice.deletedWords == 1 ? "it" : "them"
        return "Your Anki collection replaced your Vocab account: \(words) deleted. "
            + "Vocab kept \(them) in a backup taken at \(notice.backupTakenAt.iso8601): restore that backup in Vocab to bring \(them) back."
    }

    /// An answer: `bytes` compressed, with the size the app expects to unpack.
    static func compressed(_ bytes: [UInt8]) throws -> AnkiSyncReply {
        do {
            return reply(compressed: try Zstd.compress(bytes), size: bytes.count)
        } catch {
            throw Refusal.somethingWentWrong
        }
    }

    /// An answer of `compressed` bytes that unpack to `size`.
    static func reply(compressed: [UInt8], size: Int) -> AnkiSyncReply {
        AnkiSyncReply(status: 200, headers: [("Content-Type", "application/octet-stream"), ("anki-original-size", String(size))],
                      body: compressed)
    }

    static func json<T: Encodable>(_ value: T) throws -> AnkiSyncReply { try compressed(AnkiSyncWire.encode(value)) }

    /// A device's name in the account's list, from the app's version (`26.09,abc123,linux`):
    /// "Anki 26.09 on linux"; only letters, digits, dots and dashes of it are kept.
    static func label(client: String) -> String {
        let parts = client.split(separator: ",", omittingEmptySubsequences: false).map { part in
            String(part.filter { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-") }.prefix(20))
        }
        let version = parts.first ?? "", platform = parts.count > 2 ? parts[2] : ""
        return ["Anki", version.isEmpty ? nil : version, platform.isEmpty ? nil : "on " + platform].compactMap { $0 }.joined(separator: " ")
    }
}
