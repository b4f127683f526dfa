import Foundation
import VocabCore
import VocabSessions
import VocabStore
#if canImport(Glibc)
import Glibc
#endif

/// The progress report (`vocab-bench progress [--notes N] [--runs N] [--keep]`): a package of
/// `notes` notes with 10 reviews each over the last year, made by Anki's own Python package;
/// `vocab import` of it; then the whole report computed in this process, beside Anki's Rust
/// core computing its own statistics (`graphs`, 365 days) on a collection that imported the
/// same package. Targets: at most Anki's time, and under 100 ms. Then the report's calendar,
/// due-ahead and true retention are recomputed with plain `sqlite3` queries over the same
/// store, and must agree exactly.
struct ProgressBenchmark {
    var notes = 100_000
    var runs = 5
    var keep = false
    /// A folder a run with `--keep` left: its package and store are used again as they are.
    var reuse: String?

    init(_ arguments: [String]) throws {
        var index = 0
        while index < arguments.count {
            switch arguments[index] {
            case "--notes", "--runs":
                guard index + 1 < arguments.count, let value = Int(arguments[index + 1]), value > 0 else {
                    throw BenchError.message("\(arguments[index]) needs a positive number")
                }
                if arguments[index] == "--notes" { notes = value } else { runs = value }
                index += 1
            case "--keep": keep = true
            case "--reuse":
                guard index + 1 < arguments.count else { throw BenchError.message("--reuse needs the folder a --keep run printed") }
                reuse = arguments[index + 1]
                index += 1
            default: throw BenchError.message("unknown option \(arguments[index]) for progress (--notes N, --runs N, --keep, --reuse DIR)")
            }
            index += 1
        }
    }

    func run() throws {
        let python = ProcessInfo.processInfo.environment["VOCAB_BENCH_ANKI_PYTHON"] ?? "/opt/vocab-test-python/bin/python"
        guard FileManager.default.isExecutableFile(atPath: python),
              (try? ChildProcess.measure(python, ["-c", "import anki"])) != nil else {
            BenchChecks.referenceMissing("progress", "no Python with Anki's package at \(python); .ci/run installs one", skipWith: "--skip-progress")
            return
        }
        let work = reuse ?? NSTemporaryDirectory() + "vocab-bench-progress-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        defer { if keep || reuse != nil { print("kept: \(work)") } else { try? FileManager.default.removeItem(atPath: work) } }
        let script = ChildProcess.scriptPath("bench_progress.py")
        let package = work + "/progress.apkg"
        let home = work + "/home"
        if reuse == nil {
            let made = try ChildProcess.measure(python, [script, "make", package, String(notes)])
            let environment = ["VOCAB_HOME": home, "XDG_CONFIG_HOME": work + "/config", "VOCAB_BACKGROUND": "off"]
            let imported = try ChildProcess.measure(try ChildProcess.vocabProgram(), ["import", package], environment: environment)
            print(String(format: "data: %d notes with 10 reviews each over the last year, made by Anki in %.0f s; vocab import %.1f s",
                         notes, made.seconds, imported.seconds))
        }
        BenchChecks.requireCounts(of: home + "/vocab.sqlite", words: notes, reviews: notes * 10, "progress")

        let store = try Store.open(folder: home)
        let studyDay = StudyDay(), now = Timestamp.now()
        var report: ProgressReport?
        let clock = ContinuousClock()
        var times: [Double] = []
        for _ in 0..<runs {
            let took = try clock.measure { report = try ProgressService.report(in: Library(store), books: nil, now: now, studyDay: studyDay) }
            times.append(took.seconds)
        }
        let output = work + "/anki.txt"
        _ = try ChildProcess.measure(python, [script, "graphs", package, "365"], stdoutPath: output)
        let fields = ((try? String(contentsOfFile: output, encoding: .utf8)) ?? "").split(separator: " ")
        guard fields.count == 2, let anki = Double(fields[0]),
              Int(fields[1].trimmingCharacters(in: .whitespacesAndNewlines)) == notes * 10 else {
            throw BenchError.message("Anki's graphs printed no time and revlog count")
        }
        let best = times.min() ?? 0
        print(String(format: "progress report of %d words and %d reviews (365 days): %.1f ms (first run %.1f ms), Anki's own graphs %.1f ms, ratio %.2fx (target <= 1x; < 100 ms)",
                     notes, notes * 10, best * 1000, (times.first ?? 0) * 1000, anki * 1000, best / max(anki, 1e-9)))
        BenchChecks.target("progress report: \(String(format: "%.2f", best / max(anki, 1e-9)))x Anki's graphs", best / max(anki, 1e-9), atMost: 1)
        BenchChecks.target("progress report: \(String(format: "%.1f", best * 1000)) ms", best * 1000, atMost: 100)
        if let report { crossCheck(report, store: home + "/vocab.sqlite", in: work) }
    }

    /// The report's calendar, due-ahead days and true retention recomputed by plain SQL over the
    /// same store (`scripts/progress_check.py`, which the suite runs too): every figure must agree.
    private func crossCheck(_ report: ProgressReport, store: String, in work: String) {
        let reportFile = work + "/report.json", output = work + "/check.txt"
        let said = { ((try? String(contentsOfFile: output, encoding: .utf8)) ?? "").split(separator: "\n").map { "  " + $0 }.joined(separator: "\n") }
        do {
            try Data(report.json.compact.utf8).write(to: URL(fileURLWithPath: reportFile))
            _ = try ChildProcess.measure("/usr/bin/python3", [ChildProcess.scriptPath("progress_check.py"), store, reportFile], stdoutPath: output)
            print(said())
        } catch {
            print(said())
            BenchChecks.fail("progress: the report and plain SQL disagree, or the check could not run: \(error)")
        }
    }
}
