import Foundation
#if canImport(Glibc)
import Glibc
#endif

// vocab-bench: one line per figure, each beside a reference measured in the same run.
//
//   swift run -c release vocab-bench [--rows N] [--memory-rows N] [--runs N] [--skip-memory]
//   vocab-bench cloud-load [--users N] [--devices N] [--seconds N]   (many users syncing at once)
//   vocab-bench web-load [--learners N] [--seconds N]   (many learners on one vocab serve --cloud)
//   vocab-bench shared-books [--words N] [--followers N] [--listed N]   (a shared book and the catalogue)
//   vocab-bench progress [--notes N] [--runs N]   (the progress report beside Anki's own graphs)
//   vocab-bench failover [--users N] [--devices N] [--seconds N] [--kill-after N]   (a database node killed mid-load)
//   vocab-bench anki-sync [--notes N] [--changes N]   (Anki's apps syncing, beside Anki's own server)
//
// The `vocab` commands it times are those of the `vocab` binary beside it (built with it), run
// as children whose time and peak memory are their own.

let arguments = Array(CommandLine.arguments.dropFirst())
// Every benchmark runs its children through the spawner: without it, nothing can be measured.
if !arguments.contains("--help"), !arguments.contains("-h") {
    do { _ = try ChildProcess.spawnerPath() } catch {
        FileHandle.standardError.write(Data("vocab-bench: \(error)\n".utf8))
        exit(1)
    }
}
if ["cloud-load", "web-load", "shared-books", "progress", "failover", "anki-sync"].contains(arguments.first) {
    do {
        if arguments.first == "anki-sync" {
            try AnkiSyncBenchmark(Array(arguments.dropFirst())).run()
        } else if arguments.first == "failover" {
            try FailoverBenchmark(Array(arguments.dropFirst())).run()
        } else if arguments.first == "progress" {
            try ProgressBenchmark(Array(arguments.dropFirst())).run()
        } else if arguments.first == "shared-books" {
            try SharedBooksBenchmark(Array(arguments.dropFirst())).run()
        } else if arguments.first == "web-load" {
            try WebLoadBenchmark(Array(arguments.dropFirst())).run()
        } else {
            try CloudLoadBenchmark(Array(arguments.dropFirst())).run()
        }
        BenchChecks.exitIfAnyFailed()
        exit(0)
    } catch {
        FileHandle.standardError.write(Data("vocab-bench: \(error)\n".utf8))
        exit(1)
    }
}

var options = BenchOptions()
do {
    options = try BenchOptions(arguments)
    // Children's peak memory first, while this process is small: posix_spawn shares this
    // process's memory with the child until it execs, and that counts in the child's peak.
    if !options.skipImport { try ImportBenchmark(options: options).run() }
    if !options.skipScale { try ScaleBenchmark(options: options).run() }
    if !options.skipAnki { try AnkiBenchmark(options: options).run() }
    if !options.skipOptimize { try OptimizeBenchmark(options: options).run() }
    if !options.skipDesktop { try DesktopBenchmark(options: options).run() }
    if !options.skipBackup { try BackupBenchmark(options: options).run() }
    if !options.skipStudy { try StudyBenchmark(options: options).run() }
    if !options.skipReaders { try ReadersBenchmark(options: options).run() }
    if !options.skipWeb { try WebBenchmark(options: options).run() }
    if !options.skipSync { try SyncBenchmark(options: options).run() }
    // Last: making its list grows this process, and every child's peak memory measured after
    // it would count that (see above).
    if !options.skipWordNet { try WordNetListBenchmark(options: options).run() }
} catch {
    FileHandle.standardError.write(Data("vocab-bench: \(error)\n".utf8))
    BenchChecks.exitIfAnyFailed()
    exit(1)
}
BenchChecks.exitIfAnyFailed()
