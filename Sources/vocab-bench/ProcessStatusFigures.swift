import Foundation

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
}
