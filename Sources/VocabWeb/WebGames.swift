import FoundationEssentials
import Synchronization
import VocabSessions

/// The games being played through the web app, each owned by the device that started it. Bounded:
/// a device has at most `perDevice` games (its oldest ends when it starts another), the server
/// at most `total`, and a game untouched for `idleSeconds` is ended (what was answered is kept:
/// each answer is saved as it is given).
final class WebGames: Sendable {
    struct Entry {
        let game: GameSession
        let device: String
        var lastUsed: Date
    }

    private let games = Mutex<[UUID: Entry]>([:])
    let perDevice: Int, total: Int, idleSeconds: TimeInterval

    init(perDevice: Int = 4, total: Int = 256, idleSeconds: TimeInterval = 3600) {
        self.perDevice = perDevice
        self.total = total
        self.idleSeconds = idleSeconds
    }

    /// Keeps `game` for `device`; returns the games it pushed out (to finish them).
    func add(_ game: GameSession, device: String, now: Date = Date()) -> [GameSession] {
        games.withLock { games in
            var dropped: [GameSession] = []
            for (id, entry) in games where now.timeIntervalSince(entry.lastUsed) > idleSeconds {
                dropped.append(entry.game)
                games[id] = nil
            }
            func dropOldest(where include: (Entry) -> Bool) {
                guard let oldest = games.filter({ include($0.value) }).min(by: { $0.value.lastUsed < $1.value.lastUsed }) else { return }
                dropped.append(oldest.value.game)
                games[oldest.key] = nil
            }
            while games.values.filter({ $0.device == device }).count >= perDevice { dropOldest { $0.device == device } }
            while games.count >= total { dropOldest { _ in true } }
            games[game.id] = Entry(game: game, device: device, lastUsed: now)
            return dropped
        }
    }

    /// The game `id` if `device` started it (another device's game is as good as missing).
    func game(_ id: UUID, device: String, now: Date = Date()) -> GameSession? {
        games.withLock { games in
            guard var entry = games[id], entry.device == device else { return nil }
            entry.lastUsed = now
            games[id] = entry
            return entry.game
        }
    }

    func remove(_ id: UUID) {
        _ = games.withLock { $0.removeValue(forKey: id) }
    }
}
