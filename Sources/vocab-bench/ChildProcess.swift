import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What one measured child process did.
struct Measurement {
    let seconds: Double
    /// Peak resident memory of the child, in bytes.
    let maxResidentBytes: Int
}

/// Runs a program as a child process and measures its wall time and its own peak memory,
/// through `vocab-bench-spawn` (built beside this program): Linux counts in a child's peak
/// memory that of the process it was spawned from, and this one holds tens of MiB — every
/// child, `sqlite3` included, would show at least as much.
enum ChildProcess {
    /// The spawner beside this program; its absence is said as itself (a check that measures a
    /// reference through it must not read it as the reference missing).
    static func spawnerPath() throws -> String {
        let spawner = URL(fileURLWithPath: thisProgram).deletingLastPathComponent().appendingPathComponent("vocab-bench-spawn").path
        guard FileManager.default.isExecutableFile(atPath: spawner) else {
            throw BenchError.message("\(spawner) is missing: swift build -c release --product vocab-bench-spawn (scripts/bench.sh builds it)")
        }
        return spawner
    }

    /// `exitCodes`: the exit codes that count as success (a look-up that misses exits 1).
    static func measure(_ executable: String, _ arguments: [String], environment: [String: String] = [:],
                        stdinPath: String = "/dev/null", stdoutPath: String = "/dev/null",
                        exitCodes: Set<Int32> = [0]) throws -> Measurement {
        let spawner = try spawnerPath()
        var env = ProcessInfo.processInfo.environment
        for (key, value) in environment { env[key] = value }
        let errorPath = NSTemporaryDirectory() + "vocab-bench-stderr-\(UUID().uuidString)"
        let resultPath = NSTemporaryDirectory() + "vocab-bench-result-\(UUID().uuidString)"
        defer { unlink(errorPath); unlink(resultPath) }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, stdinPath, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdoutPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errorPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)

        let argv = ([spawner, resultPath, executable] + arguments).map { strdup($0) } + [nil]
        let envp = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }

        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, spawner, &actions, nil, argv, envp)
        guard spawned == 0 else { throw BenchError.message("cannot start \(spawner): \(String(cString: strerror(spawned)))") }
        var spawnerStatus: Int32 = 0
        while waitpid(pid, &spawnerStatus, 0) < 0 {
            guard errno == EINTR else { throw BenchError.message("waitpid failed") }
        }
        let errors = { (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? "" }
        // "<status> <wall nanoseconds> <peak resident KiB>" of the child.
        let fields = ((try? String(contentsOfFile: resultPath, encoding: .utf8)) ?? "").split(separator: " ")
            .compactMap { Int64($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        guard spawnerStatus == 0, fields.count == 3 else {
            throw BenchError.message("\(executable) \(arguments.joined(separator: " ")) could not be measured: \(errors())")
        }
        let status = Int32(truncatingIfNeeded: fields[0])
        let exitedCleanly = (status & 0x7F) == 0 && exitCodes.contains((status >> 8) & 0xFF)
        guard exitedCleanly else {
            throw BenchError.message("\(executable) \(arguments.joined(separator: " ")) failed (status \(status)): \(errors())")
        }
        return Measurement(seconds: Double(fields[1]) / 1e9, maxResidentBytes: Int(fields[2]) * 1024)
    }

    /// This program's path, absolute (the benchmark runs itself as `vocab` in child processes).
    /// A script of the project's `scripts/` folder (beside the sources this was built from).
    static func scriptPath(_ name: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("scripts/\(name)").path
    }

    /// The `vocab` binary beside this one (built with it: scripts/bench.sh), whose commands
    /// the benchmarks time as a learner runs them.
    static func vocabProgram() throws -> String {
        let path = URL(fileURLWithPath: thisProgram).deletingLastPathComponent().appendingPathComponent("vocab").path
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw BenchError.message("no vocab binary beside vocab-bench (\(path)): build both, as scripts/bench.sh does")
        }
        return path
    }

    static var thisProgram: String {
        CommandLine.arguments[0].hasPrefix("/") ? CommandLine.arguments[0]
            : FileManager.default.currentDirectoryPath + "/" + CommandLine.arguments[0]
    }

    /// The full path of a program on PATH, if any.
    static func which(_ name: String) -> String? {
        let paths = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return paths.map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}
