import Synchronization

/// A dictionary by text key split into shards, each behind a lock of its own: the threads of
/// many requests reach different entries without queueing on one lock (a server of many
/// learners looked up every request's device under one, and a fifth of its time went to
/// waiting for it).
package final class ShardedDictionary<Value: Sendable>: Sendable {
    private final class Shard: Sendable {
        let entries = Mutex<[String: Value]>([:])
    }

    private let shards: [Shard]

    package init(shards count: Int = 32) {
        shards = (0..<max(count, 1)).map { _ in Shard() }
    }

    /// Runs `body` on the shard that holds `key`, under its lock.
    package func withShard<T>(of key: String, _ body: (inout [String: Value]) throws -> T) rethrows -> T {
        let index = Int(UInt(bitPattern: key.hashValue) % UInt(shards.count))
        return try shards[index].entries.withLock { try body(&$0) }
    }

    package subscript(key: String) -> Value? {
        get { withShard(of: key) { $0[key] } }
        set { withShard(of: key) { $0[key] = newValue } }
    }

    /// Runs `body` on every shard in turn, each under its lock.
    package func forEachShard(_ body: (inout [String: Value]) -> Void) {
        for shard in shards { shard.entries.withLock { body(&$0) } }
    }

    package var count: Int {
        var total = 0
        forEachShard { total += $0.count }
        return total
    }
}
