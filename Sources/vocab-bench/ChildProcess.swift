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

/// Runs a program as a child process (posix_spawn + wait4) and measures its wall time and
/// its own peak memory.
enum ChildProcess {
    /// `exitCodes`: the exit codes that count as success (a look-up that misses exits 1).
    static func measure(_ executable: String, _ arguments: [String], environment: [String: String] = [:],
                        stdinPath: String = "/dev/null", stdoutPath: String = "/dev/null",
                        exitCodes: Set<Int32> = [0]) throws -> Measurement {
        var env = ProcessInfo.processInfo.environment
        for (key, value) in environment { env[key] = value }
        let errorPath = NSTemporaryDirectory() + "vocab-bench-stderr-\(UUID().uuidString)"
        defer { unlink(errorPath) }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, stdinPath, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdoutPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errorPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }

        let start = ContinuousClock.now
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, envp)
        guard spawned == 0 else { throw BenchError.message("cannot start \(executable): \(String(cString: strerror(spawned)))") }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 {
            guard errno == EINTR else { throw BenchError.message("wait4 failed") }
        }
        let elapsed = ContinuousClock.now - start
        let exitedCleanly = (status & 0x7F) == 0 && exitCodes.contains((status >> 8) & 0xFF)
        guard exitedCleanly else {
            let errors = (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? ""
            throw BenchError.message("\(executable) \(arguments.joined(separator: " ")) failed (status \(status)): \(errors)")
        }
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return Measurement(seconds: seconds, maxResidentBytes: Int(usage.ru_maxrss) * 1024)
    }

    /// This program's path, absolute (the benchmark runs itself as `vocab` in child processes).
    /// A script of the project's `scripts/` folder (beside the sources this was built from).
    static func scriptPath(_ name: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("scripts/\(name)").path
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
