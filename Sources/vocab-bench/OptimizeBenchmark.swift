import Foundation
import VocabCore
import VocabStore

/// The FSRS optimiser on synthetic learners (DESIGN.md §10): for each learner, parameters
/// fitted on 80% of their words by Vocab and by the reference optimiser (fsrs-rs, through
/// PyPI's fsrs-rs-python, when installed), both scored on the other 20% with the same
/// evaluation, against the defaults; then `vocab optimize` of a store with 100,000 reviews,
/// timed as a whole process, beside the reference fitting the same log.
/// Targets: held-out log loss within 1% of the reference's; 100,000 reviews in under 10 s.
struct OptimizeBenchmark {
    let options: BenchOptions
    private let start = Timestamp(iso8601: "2026-01-01T08:00:00Z") ?? Timestamp(milliseconds: 0)

    func run() throws {
        let work = NSTemporaryDirectory() + "vocab-bench-optimize-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        defer { if options.keep { print("kept: \(work)") } else { try? FileManager.default.removeItem(atPath: work) } }
        let python = ProcessInfo.processInfo.environment["VOCAB_BENCH_FSRS_PYTHON"] ?? "/opt/vocab-test-python/bin/python"
        let reference = FileManager.default.isExecutableFile(atPath: python)
            && (try? ChildProcess.measure(python, ["-c", "import fsrs_rs_python"])) != nil ? python : nil
        if reference == nil {
            BenchChecks.referenceMissing("optimize", "no Python with fsrs-rs-python at \(python); .ci/run installs one",
                                         skipWith: "--skip-optimize")
        }
        var random = SeededRandom(seed: 20_261_201)
        var ratios: [Double] = [], better = 0
        print("learner  reviews  defaults  vocab    reference  vocab/ref  vocab s  reference s   (held-out log loss)")
        for learner in 1...options.learners {
            let person = SimulatedLearner.random(&random)
            var logs = person.reviewLogs(words: 1_500, newPerDay: 25, days: 240, start: start, random: &random)
            random.shuffle(&logs)
            let sequences = logs.map(FSRSReviewSequence.init(log:))
            let split = sequences.count * 4 / 5
            let train = Array(sequences[..<split]), heldOut = Array(sequences[split...])
            let clock = ContinuousClock()
            var fitted: [Double] = []
            let ours = try clock.measure { fitted = try FSRSOptimizer().fit(train) }
            let defaults = FSRSEvaluation(parameters: FSRSScheduler.defaultParameters, sequences: heldOut).logLoss
            let vocab = FSRSEvaluation(parameters: fitted, sequences: heldOut).logLoss
            if vocab < defaults { better += 1 }
            var line = String(format: "%7d  %7d  %.4f    %.4f", learner, FSRSReviewSequence.targetCount(train), defaults, vocab)
            if let reference {
                let fit = try referenceFit(python: reference, logs: Array(logs[..<split]), work: work)
                let theirs = FSRSEvaluation(parameters: FSRSParameterBounds.clipped(fit.parameters), sequences: heldOut).logLoss
                ratios.append(vocab / theirs)
                line += String(format: "   %.4f     %.4f     %5.2f    %5.2f", theirs, vocab / theirs, ours.seconds, fit.seconds)
            } else {
                line += String(format: "   -          -          %5.2f    -", ours.seconds)
            }
            print(line)
        }
        let worst = ratios.max().map { String(format: ", worst %.4f", $0) } ?? ""
        let mean = ratios.isEmpty ? "no reference" : String(format: "mean vocab/reference %.4f%@", ratios.reduce(0, +) / Double(ratios.count), worst)
        print("optimize: fitted beat the defaults on held-out reviews for \(better) of \(options.learners) learners; \(mean) (target <= 1.01)")
        if !ratios.isEmpty {
            BenchChecks.target("optimize: mean held-out log loss \(String(format: "%.4f", ratios.reduce(0, +) / Double(ratios.count)))x fsrs-rs's",
                               ratios.reduce(0, +) / Double(ratios.count), atMost: 1.01)
        }
        try storeFigure(work: work, reference: reference, random: &random)
    }

    /// `vocab optimize --dry-run` on a store whose log holds about `optimizeReviews` reviews.
    private func storeFigure(work: String, reference: String?, random: inout SeededRandom) throws {
        let person = SimulatedLearner.random(&random)
        let wordCount = max(100, options.optimizeReviews / 9)
        let logs = person.reviewLogs(words: wordCount, newPerDay: max(1, wordCount / 300), days: 365, start: start, random: &random)
        let home = work + "/home"
        let store = try Store.open(folder: home)
        let words = try BenchStore.importBook(rows: logs.count, seed: 5, csv: work + "/words.csv", into: store, now: start).words
        var ids = TimeOrderedIDs()
        var batches = BenchStore.ReviewBatches(store: store)
        for (word, log) in zip(words, logs) {
            for review in log {
                try batches.add(ReviewRecord(id: ids.next(milliseconds: review.at.milliseconds), wordId: word.id,
                                             reviewedAt: review.at, rating: review.rating, source: .study))
            }
        }
        try batches.finish()
        let reviews = try store.reviewCount()
        let usable = FSRSReviewSequence.targetCount(try store.reviewSequences(inBooks: nil))
        let environment = ["VOCAB_HOME": home, "XDG_CONFIG_HOME": work + "/config", "VOCAB_BACKGROUND": "off"]
        // Ours and the reference in turns, the same best-of-N for each.
        var best = Measurement(seconds: .infinity, maxResidentBytes: 0), referenceBest = Double.infinity
        for _ in 0..<min(options.runs, 3) {
            let run = try ChildProcess.measure(try ChildProcess.vocabProgram(), ["optimize", "--dry-run"], environment: environment)
            if run.seconds < best.seconds { best = run }
            if let reference { referenceBest = min(referenceBest, try referenceFit(python: reference, logs: logs, work: work).seconds) }
        }
        var line = String(format: "optimize: vocab optimize of %d reviews (%d predicted, %d words): %.2f s, %.1f MiB (target < 10 s)",
                          reviews, usable, logs.count, best.seconds, Double(best.maxResidentBytes) / 1_048_576)
        if reference != nil {
            line += String(format: "; the reference fits the same log in %.2f s (best of %d each, in turns)", referenceBest, min(options.runs, 3))
        }
        print(line)
        BenchChecks.target("optimize: vocab optimize of \(reviews) reviews took \(String(format: "%.2f", best.seconds)) s", best.seconds, atMost: 10)
    }

    /// The reference optimiser's parameters for `logs`, and the seconds its fit took.
    private func referenceFit(python: String, logs: [[(rating: Rating, at: Timestamp)]], work: String) throws -> (parameters: [Double], seconds: Double) {
        let words = logs.map { log -> [[Double]] in
            let sequence = FSRSReviewSequence(log: log)
            return zip(sequence.ratings, sequence.days).map { [Double($0), $1] }
        }
        let input = work + "/log.json", output = work + "/fit.json"
        try JSONSerialization.data(withJSONObject: words).write(to: URL(fileURLWithPath: input))
        _ = try ChildProcess.measure(python, [ChildProcess.scriptPath("fsrs_optimizer_reference.py"), "fit", input], stdoutPath: output)
        guard let data = FileManager.default.contents(atPath: output),
              let result = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any],
              let parameters = result["parameters"] as? [Double], parameters.count == 21,
              let seconds = result["seconds"] as? Double else {
            throw BenchError.message("the reference optimiser printed no parameters")
        }
        return (parameters, seconds)
    }
}
