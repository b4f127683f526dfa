import VocabAnkiSync
import VocabCloudAPI
import VocabSessions

extension AnkiSyncExchange {
    /// An Anki app's request as the HTTP server read it.
    package init(_ request: HTTPRequest) {
        self.init(method: request.method, path: request.path, header: request.header("anki-sync"), body: request.body, peer: request.peer)
    }
}

extension AnkiSyncReply {
    /// The answer as the HTTP server sends it.
    package var response: HTTPResponse {
        var response = HTTPResponse(status: status, headers: headers + [("Cache-Control", "no-store")], body: body)
        response.refusalCause = refusalCause
        response.whenDone = whenDone
        return response
    }
}

/// A server of one learner's accounts for Anki's apps: the app signs in with the pairing code
/// the server shows (typed as the password; any user name), which pairs it like a phone, and
/// its key is the paired device's token.
struct PairedAnkiAccounts: AnkiSyncAccounts {
    let pool: LibraryPool
    let pairing: DevicePairing
    /// The store's own id, as the account its collection is of.
    let account: String
    /// Keeps the file a full download sends ready, once started: told of every call.
    let readiness: AnkiDownloadReadiness
    /// Where the file a full download sends is kept ready.
    var downloadFolder: String { AnkiDownloadReadiness.folder(of: pool) }

    func signIn(user: String, password: String, label: String, peer: String) throws -> String {
        guard let token = pairing.pair(code: password) else { throw Refusal.wrongPairingCode }
        return token
    }

    func serve(key: String, peer: String, _ body: (AnkiLearner) throws -> AnkiSyncReply) throws -> AnkiSyncReply {
        guard pairing.isPaired(key) else { throw Refusal.pairFirst }
        readiness.heardFromApp()
        defer { readiness.changed() }
        return try body(AnkiLearner(account: account, pool: pool, downloadFolder: downloadFolder, deferral: readiness.deferral))
    }
}
