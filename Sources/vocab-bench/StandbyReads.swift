import Foundation
import VocabCloud
import VocabSync
import VocabCloudAPI

/// Whether reads that need not go to the primary help when sent to the standby (issue 57): the
/// catalogue's search (the one read whose stale answer is harmless) run by `readers` threads
/// while the fleet syncs, first on the primary and then on the standby, same listed books, same
/// learners' load. Reports syncs/s and searches/s of each; the caller decides from them.
struct StandbyReads {
    let address: ServerAddress
    let readers: Int
    let listed = 10_000

    /// The search the catalogue runs (`vocab.catalog`'s query, without the device's check,
    /// which writes when it was last seen and so cannot run on a standby): 'toeic verbs',
    /// newest first, 20 at most, over `listed` books of which about 1 in 100 match.
    static let search = """
        SELECT s.id, s.code, s.title FROM vocab.shares s
        WHERE s.listed AND s.ended IS NULL AND to_tsvector('simple', s.title) @@ to_tsquery('simple', '''toeic'':* & ''verbs'':*')
        ORDER BY s.created DESC LIMIT 20
        """

    /// Lists `listed` books (under an owner of their own) and waits until the standby has them.
    func seed(admin: PostgresConnection, owner: String) throws {
        try SharedBooksBenchmark.list(listed, owner: owner, on: admin)
        try admin.execute("ANALYZE vocab.shares")
        let standby = try PostgresConnection(on("standby"), password: nil)
        let deadline = ContinuousClock.now + .seconds(60)
        while try standby.execute("SELECT count(*) FROM vocab.shares WHERE owner = $1", [owner]).first?.first ?? nil != String(listed) {
            guard ContinuousClock.now < deadline else { throw BenchError.message("the standby did not receive the listed books within a minute") }
            usleep(100_000)
        }
    }

    /// The cloud's address, taking only a node of `kind` ("primary" or "standby").
    func on(_ kind: String) -> ServerAddress {
        var node = address
        node.targetSessionAttributes = kind
        return node
    }

    /// Runs the searches on a node of `kind` until `deadline`, each reader on its own
    /// connection and thread; returns a wait for them that answers how many searches found the
    /// 20 books and how many failed.
    func searches(on kind: String, until deadline: ContinuousClock.Instant) -> () -> (found: Int, failed: Int) {
        let counter = SearchCounter()
        let node = on(kind)
        let threads = (0..<readers).map { _ in
            Thread {
                guard let connection = try? PostgresConnection(node, password: nil) else { return counter.failed() }
                while ContinuousClock.now < deadline {
                    guard let rows = try? connection.execute(Self.search), rows.count == 20 else { counter.failed(); continue }
                    counter.searched()
                }
            }
        }
        threads.forEach { $0.start() }
        return {
            while threads.contains(where: { !$0.isFinished }) { usleep(50_000) }
            return counter.counts
        }
    }
}

/// The searches the readers made, and those that failed or found other than 20 books.
private final class SearchCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var done = 0, failures = 0
    func searched() { lock.withLock { done += 1 } }
    func failed() { lock.withLock { failures += 1 } }
    var counts: (found: Int, failed: Int) { lock.withLock { (done, failures) } }
}
