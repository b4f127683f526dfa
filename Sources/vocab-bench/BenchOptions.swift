import Foundation

/// The benchmark's settings, from its command line.
struct BenchOptions {
    var rows = 100_000
    var memoryRows = 1_000_000
    var runs = 5
    var skipMemory = false
    var skipImport = false
    var skipWordNet = false
    var skipStudy = false
    var skipReaders = false
    var skipSync = false
    var skipDesktop = false
    var skipBackup = false
    var skipScale = false
    var skipAnki = false
    var skipOptimize = false
    var skipWeb = false
    /// Synthetic learners the optimiser is compared on.
    var learners = 5
    /// Reviews in the store `vocab optimize` is timed on.
    var optimizeReviews = 100_000
    /// Notes in the Anki package the import figure reads.
    var ankiNotes = 50_000
    /// Keep the generated files (their folder is printed).
    var keep = false

    init() {}

    init(_ arguments: [String]) throws {
        var index = 0
        func number() throws -> Int {
            index += 1
            guard index < arguments.count, let value = Int(arguments[index]), value > 0 else {
                throw BenchError.message("\(arguments[index - 1]) needs a positive number")
            }
            return value
        }
        while index < arguments.count {
            switch arguments[index] {
            case "--rows": rows = try number()
            case "--memory-rows": memoryRows = try number()
            case "--runs": runs = try number()
            case "--skip-memory": skipMemory = true
            case "--keep": keep = true
            case "--skip-import": skipImport = true
            case "--skip-wordnet": skipWordNet = true
            case "--skip-study": skipStudy = true
            case "--skip-readers": skipReaders = true
            case "--skip-sync": skipSync = true
            case "--skip-desktop": skipDesktop = true
            case "--skip-backup": skipBackup = true
            case "--skip-scale": skipScale = true
            case "--skip-anki": skipAnki = true
            case "--anki-notes": ankiNotes = try number()
            case "--skip-optimize": skipOptimize = true
            case "--skip-web": skipWeb = true
            case "--learners": learners = try number()
            case "--optimize-reviews": optimizeReviews = try number()
            case "--help", "-h":
                print("Usage: vocab-bench [--rows N] [--memory-rows N] [--runs N] [--skip-memory] [--skip-import] [--skip-wordnet] [--skip-study] [--skip-readers] [--skip-sync] [--skip-desktop] [--skip-backup] [--skip-scale] [--skip-anki] [--anki-notes N] [--skip-optimize] [--skip-web] [--learners N] [--optimize-reviews N] [--keep]\n(sync figures need a PostgreSQL: run scripts/bench.sh, which starts one)")
                exit(0)
            default: throw BenchError.message("unknown option \(arguments[index]) (see --help)")
            }
            index += 1
        }
    }
}
