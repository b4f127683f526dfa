import VocabAnkiSync
import VocabCloudAPI
import VocabCloudSessions
import VocabSessions
import VocabWeb

/// A cloud's accounts for Anki's apps: the app signs in with the learner's user name and
/// password, through the same limits as every sign-in (`CloudService.signIn`), and becomes a
/// device of the account ("Anki 26.09 on linux" in its list: revocable, signed out like any
/// other). Its requests take the learner's turns like his other devices'. The collection it
/// syncs with is kept in the cloud, a copy in the learner's store here (`CloudAnkiCollection`).
struct CloudAnkiAccounts: AnkiSyncAccounts {
    let service: CloudService<WebApp>
    let turns: LearnerTurns

    func signIn(user: String, password: String, label: String, peer: String) throws -> String {
        let caller = try service.signIn(user: user, password: password, label: label,
                                        from: KnownSources.Source(network: AddressNetwork.of(peer), mark: nil))
        return caller.key.token
    }

    func serve(key: String, peer: String, _ body: (AnkiLearner) throws -> AnkiSyncReply) throws -> AnkiSyncReply {
        let caller = try service.caller(token: key, network: AddressNetwork.of(peer))
        let giveBack = try turns.turn(for: caller.owner)
        do {
            // What the app sent may change words: pushed as any device's change is.
            var reply = try service.serve(caller, writing: true, changed: { (_: AnkiSyncReply) in true }) { app in
                // The download's file is kept beside his store here (counted in the cache's
                // budget, and gone with the store when it is evicted).
                try body(AnkiLearner(account: caller.owner, pool: app.pool, cloud: service.ankiCollection(for: caller),
                                     downloadFolder: AnkiDownloadReadiness.folder(of: app.pool)))
            }
            reply.whenDone = giveBack
            return reply
        } catch {
            giveBack()
            throw error
        }
    }
}
