import Synchronization
import VocabCore

/// Where each account's owner has been seen, so that strangers' failures never hold him back:
/// the address networks (`AddressNetwork`) from which the account signed in or one of its
/// devices proved itself, and the browsers given a mark at a sign-in that passed (a random
/// token in a cookie of their own; kept here as its SHA-256). In memory, as the limits it
/// stands beside are: a restart forgets both. Bounded: `placesPerAccount` networks and marks
/// per account (the least recently seen go first), `accountsKept` accounts (the quietest half
/// goes when full).
package final class KnownSources: Sendable {
    /// What a sign-in comes from, as the limits see it.
    package struct Source: Sendable {
        /// The client's address network.
        package var network: String
        /// The browser's mark, when it sent one.
        package var mark: String?

        package init(network: String, mark: String? = nil) {
            self.network = network
            self.mark = mark
        }
    }

    private struct Places {
        var networks: [String] = []
        var marks: [[UInt8]] = []
        var lastSeen: ContinuousClock.Instant
    }

    let placesPerAccount: Int
    let accountsKept: Int
    private let accounts = Mutex<[String: Places]>([:])

    init(placesPerAccount: Int = 16, accountsKept: Int = 100_000) {
        self.placesPerAccount = placesPerAccount
        self.accountsKept = accountsKept
    }

    /// Whether `account`'s owner has been seen at `source` (its network, or its browser's mark).
    func knows(_ account: String, at source: Source) -> Bool {
        let markHash = source.mark.map { SHA256.hash(Array($0.utf8)) }
        return accounts.withLock { accounts in
            guard let places = accounts[account.lowercased()] else { return false }
            if places.networks.contains(source.network) { return true }
            guard let markHash else { return false }
            return places.marks.contains { Secrets.sameBytes($0, markHash) }
        }
    }

    /// `account`'s owner was seen at `network` (a sign-in passed, or a device proved itself).
    func saw(_ account: String, at network: String) {
        update(account) { places in
            places.networks.removeAll { $0 == network }
            places.networks.append(network)
            if places.networks.count > placesPerAccount { places.networks.removeFirst() }
        }
    }

    /// A new mark for a browser `account` signed in from; the token to give it.
    func mark(for account: String) -> String {
        let token = Secrets.randomHex(bytes: 16)
        let hash = SHA256.hash(Array(token.utf8))
        update(account) { places in
            places.marks.append(hash)
            if places.marks.count > placesPerAccount { places.marks.removeFirst() }
        }
        return token
    }

    private func update(_ account: String, _ change: (inout Places) -> Void) {
        let now = ContinuousClock.now
        accounts.withLock { accounts in
            let key = account.lowercased()
            if accounts[key] == nil, accounts.count >= accountsKept {
                let quietest = accounts.sorted { $0.value.lastSeen < $1.value.lastSeen }.prefix(accounts.count / 2).map(\.key)
                quietest.forEach { accounts.removeValue(forKey: $0) }
            }
            var places = accounts[key] ?? Places(lastSeen: now)
            change(&places)
            places.lastSeen = now
            accounts[key] = places
        }
    }
}
