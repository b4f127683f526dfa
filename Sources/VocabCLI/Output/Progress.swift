import FoundationEssentials

/// A one-line progress counter on standard error, redrawn at most five times a second; silent
/// when standard error is not a terminal.
final class ProgressLine {
    private let label: String
    private let enabled: Bool
    private let started = Date()
    private var lastDrawn = Date.distantPast
    private var drawn = false
    private let console: Console
    private let unit: String
    private let kind: Kind

    /// What the number counts: things done so far (shown with a rate), or the share of the
    /// whole done, in `unit` (a percentage: no rate, no space before the unit).
    enum Kind {
        case count, share
    }

    init(_ label: String, unit: String = "rows", kind: Kind = .count, console: Console) {
        self.label = label
        self.unit = unit
        self.kind = kind
        self.console = console
        self.enabled = console.stderrIsTerminal
    }

    func update(_ count: Int) {
        guard enabled else { return }
        let now = Date()
        guard now.timeIntervalSince(lastDrawn) >= 0.2 else { return }
        lastDrawn = now
        let elapsed = max(now.timeIntervalSince(started), 0.001)
        switch kind {
        case .count: console.errorInPlace("\(label) \(count.grouped) \(unit) (\(Int(Double(count) / elapsed).grouped) \(unit)/s)")
        case .share: console.errorInPlace("\(label) \(count)\(unit)")
        }
        drawn = true
    }

    /// Clears the line before the summary is printed.
    func finish() {
        if drawn { console.errorInPlace("") }
    }
}

extension Int {
    /// 12345 → "12,345".
    var grouped: String {
        let digits = String(abs(self))
        var out = ""
        for (offset, character) in digits.enumerated() {
            if offset > 0 && (digits.count - offset) % 3 == 0 { out.append(",") }
            out.append(character)
        }
        return (self < 0 ? "-" : "") + out
    }
}
