import Foundation

/// A running process's memory as /proc/PID/status reports it.
extension Process {
    /// A field of the status in MiB (`VmRSS`, `VmHWM`), 0 once the process is gone; `Threads` as
    /// its count divided by 1024.
    func statusMiB(_ field: String) -> Double {
        let status = (try? String(contentsOfFile: "/proc/\(processIdentifier)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix(field + ":") } ?? ""
        return Double(line.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first ?? "0").map { $0 / 1024 } ?? 0
    }
}
