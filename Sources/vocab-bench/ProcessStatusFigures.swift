import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A running process as /proc/PID/status reports it (0 once the process is gone).
extension Process {
    /// A field of the status as the number it holds (`Threads`; `VmRSS` and `VmHWM` in KiB).
    func statusNumber(_ field: String) -> Double {
        let status = (try? String(contentsOfFile: "/proc/\(processIdentifier)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix(field + ":") } ?? ""
        return Double(line.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first ?? "0") ?? 0
    }

    /// A memory field of the status (`VmRSS`, `VmHWM`) in MiB.
    func statusMiB(_ field: String) -> Double { statusNumber(field) / 1024 }

    /// The CPU seconds the process has spent so far, its own and the kernel's for it (0 once gone).
    var cpuSeconds: Double { CPUTime.processSeconds("/proc/\(processIdentifier)/stat") }
}

/// CPU time as /proc counts it, in seconds.
enum CPUTime {
    /// This process's CPU seconds so far (every thread's, user and system).
    static var ownSeconds: Double { processSeconds("/proc/self/stat") }

    /// The machine's busy CPU seconds so far, all cores together: every kind of time but idle
    /// and waiting for the disk (the first line of /proc/stat).
    static var machineBusySeconds: Double {
        let stat = (try? String(contentsOfFile: "/proc/stat", encoding: .utf8)) ?? ""
        let fields = (stat.split(separator: "\n").first ?? "").split(separator: " ").dropFirst().compactMap { Double($0) }
        guard fields.count >= 8 else { return 0 }
        let idle = fields[3] + fields[4]  // idle, iowait
        return (fields.prefix(8).reduce(0, +) - idle) / ticksPerSecond
    }

    /// utime + stime of a /proc/PID/stat (fields 14 and 15; the name before them, in
    /// parentheses, may hold spaces).
    static func processSeconds(_ path: String) -> Double {
        let stat = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        guard let close = stat.lastIndex(of: ")") else { return 0 }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // After the name: state is field 3, so utime (14) and stime (15) are the 12th and 13th.
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
        return (user + system) / ticksPerSecond
    }

    private static var ticksPerSecond: Double { Double(max(sysconf(Int32(_SC_CLK_TCK)), 1)) }
}
