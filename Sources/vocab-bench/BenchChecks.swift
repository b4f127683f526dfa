import Foundation
import Synchronization
import VocabStore

/// The checks a benchmark makes beside its figures — the work converged, the counts imported
/// are the counts asked for, a reference asked for is present — and the targets it prints. A
/// failed check is printed at once (standard error, "CHECK FAILED") and the run goes on;
/// `vocab-bench` then names every failed check and missed target and exits 1 when there is
/// any (a figure beside a missing or wrong result would mean nothing, and a target missed is a
/// target missed: the run fails as a failed check fails it).
enum BenchChecks {
    private static let failures = Mutex<[String]>([])

    /// Records `what` as failed unless `condition` holds; returns `condition`.
    @discardableResult
    static func require(_ condition: Bool, _ what: @autoclosure () -> String) -> Bool {
        if !condition { fail(what()) }
        return condition
    }

    static func fail(_ what: String) {
        FileHandle.standardError.write(Data("vocab-bench: CHECK FAILED: \(what)\n".utf8))
        failures.withLock { $0.append(what) }
    }

    /// A reference the benchmark was asked to measure beside is missing.
    static func referenceMissing(_ benchmark: String, _ what: String, skipWith flag: String) {
        fail("\(benchmark): its reference is missing (\(what)); skip the benchmark with \(flag)")
    }

    /// Checks that the store at `path` holds `words` words and `reviews` reviews (nil: any).
    static func requireCounts(of path: String, words: Int, reviews: Int? = nil, _ benchmark: String) {
        do {
            let counts = try StoreBackups.check(path)
            require(counts.words == words, "\(benchmark): the store holds \(counts.words) words, \(words) were imported")
            if let reviews {
                require(counts.reviews == reviews, "\(benchmark): the store holds \(counts.reviews) reviews, \(reviews) were imported")
            }
        } catch {
            fail("\(benchmark): the store cannot be read after the import: \(error)")
        }
    }

    private static let missedTargets = Mutex<[String]>([])

    /// Records a printed target (`value` at most `limit`) as missed when it is; the run's
    /// summary names every missed target (the run still measures everything else).
    static func target(_ what: @autoclosure () -> String, _ value: Double, atMost limit: Double) {
        guard !(value <= limit) else { return }
        let text = what() + " (target <= \(limit))"
        missedTargets.withLock { $0.append(text) }
    }

    /// Notes `what` as a missed target unless `value` is at least `limit`.
    static func target(_ what: @autoclosure () -> String, _ value: Double, atLeast limit: Double) {
        guard !(value >= limit) else { return }
        let text = what() + " (target >= \(limit))"
        missedTargets.withLock { $0.append(text) }
    }

    /// Prints the summary of targets: each missed one, or that every checked one was met.
    static func printTargetSummary() {
        let missed = missedTargets.withLock { $0 }
        if missed.isEmpty {
            print("vocab-bench: every checked target met")
        } else {
            print("vocab-bench: \(missed.count) target(s) missed:")
            for what in missed { print("  - \(what)") }
        }
    }

    /// Every failed check so far, in order.
    static var failed: [String] { failures.withLock { $0 } }

    /// Every missed target so far, in order.
    static var missed: [String] { missedTargets.withLock { $0 } }

    /// Exits 1 naming the failed checks and the missed targets, if any.
    static func exitIfAnyFailed() {
        printTargetSummary()
        let failed = self.failed
        if !failed.isEmpty {
            FileHandle.standardError.write(Data("vocab-bench: \(failed.count) check(s) failed:\n".utf8))
            for what in failed { FileHandle.standardError.write(Data("  - \(what)\n".utf8)) }
        }
        let missed = self.missed
        if !missed.isEmpty {
            FileHandle.standardError.write(Data("vocab-bench: \(missed.count) target(s) missed (the run fails)\n".utf8))
        }
        if !failed.isEmpty || !missed.isEmpty { exit(1) }
    }
}
