import Foundation
import VocabCore
#if canImport(Glibc)
import Glibc
#endif

/// The report's calendar, due-ahead and true retention recomputed by plain `sqlite3` queries
/// over the same store (SQLite's own `localtime`, moved back by the day's start hour, for the
/// study day; the previous review by a window function): every figure must agree exactly.
struct ProgressCrossCheck {
    let store: String
    let report: ProgressReport
    let studyDay: StudyDay

    func run() {
        do {
            let grid = StudyDayGrid(around: report.now, studyDay: studyDay, back: max(report.days, 365), ahead: DueAhead.dayCount)
            let day = { (column: String) in "date(\(column) / 1000, 'unixepoch', 'localtime', '-\(studyDay.startHour) hours')" }
            let today = localDate(grid.starts[grid.todayIndex])

            let calendar = try counts("SELECT \(day("reviewed_at")) AS d, count(*) FROM reviews GROUP BY d")
            var agree = 0
            for (index, reviews) in report.calendar.reviews.enumerated() {
                let date = localDate(grid.starts[grid.todayIndex - (report.days - 1 - index)])
                if calendar[date, default: 0] == reviews { agree += 1 } else { BenchChecks.fail("progress: \(date) has \(reviews) reviews in the report, \(calendar[date, default: 0]) by sqlite3") }
            }

            let due = try counts("SELECT \(day("due")) AS d, count(*) FROM schedules GROUP BY d")
            let backlog = due.filter { $0.key < today }.values.reduce(0, +)
            BenchChecks.require(backlog == report.dueAhead.backlog, "progress: backlog \(report.dueAhead.backlog) in the report, \(backlog) by sqlite3")
            for (index, count) in report.dueAhead.days.enumerated() {
                let date = localDate(grid.starts[grid.todayIndex + index])
                BenchChecks.require(due[date, default: 0] == count, "progress: \(count) due on \(date) in the report, \(due[date, default: 0]) by sqlite3")
            }

            let retention = try rows("""
                WITH log AS (
                    SELECT \(day("reviewed_at")) AS d, rating,
                           reviewed_at - lag(reviewed_at) OVER (PARTITION BY word ORDER BY reviewed_at, id) AS gap
                    FROM reviews)
                SELECT CAST(julianday('\(today)') - julianday(d) AS INTEGER) AS back,
                       sum(gap < 21 * 86400000 AND rating > 1), sum(gap < 21 * 86400000 AND rating = 1),
                       sum(gap >= 21 * 86400000 AND rating > 1), sum(gap >= 21 * 86400000 AND rating = 1)
                FROM log WHERE gap >= 86400000 AND d <= '\(today)' AND d > date('\(today)', '-365 days') GROUP BY d
                """)
            for span in report.retention {
                var young = PassTally(), mature = PassTally()
                for row in retention where row.count == 5 {
                    let back = Int(row[0]) ?? -1
                    guard back >= span.period.daysBack.last, back <= span.period.daysBack.first else { continue }
                    young = young + PassTally(passed: Int(row[1]) ?? 0, failed: Int(row[2]) ?? 0)
                    mature = mature + PassTally(passed: Int(row[3]) ?? 0, failed: Int(row[4]) ?? 0)
                }
                BenchChecks.require(young == span.young && mature == span.mature,
                                    "progress: true retention (\(span.period.rawValue)) young \(span.young) mature \(span.mature) in the report, \(young) \(mature) by sqlite3")
            }
            print("  checked by plain sqlite3 queries: the calendar (\(agree) of \(report.calendar.reviews.count) days agree), the backlog and \(report.dueAhead.days.count) days due ahead, true retention over \(report.retention.count) spans")
        } catch {
            BenchChecks.fail("progress: the sqlite3 cross-check could not run: \(error)")
        }
    }

    /// The local calendar date of a study day's start, as SQLite writes dates.
    private func localDate(_ milliseconds: Int64) -> String {
        var seconds = time_t(milliseconds / 1000)
        var local = tm()
        localtime_r(&seconds, &local)
        return String(format: "%04d-%02d-%02d", Int(local.tm_year) + 1900, Int(local.tm_mon) + 1, Int(local.tm_mday))
    }

    private func counts(_ sql: String) throws -> [String: Int] {
        Dictionary(try rows(sql).compactMap { row in row.count == 2 ? Int(row[1]).map { (row[0], $0) } : nil },
                   uniquingKeysWith: { first, _ in first })
    }

    /// The rows `sqlite3` prints for `sql`, split at `|`.
    private func rows(_ sql: String) throws -> [[String]] {
        let output = NSTemporaryDirectory() + "vocab-bench-sqlite-\(UUID().uuidString)"
        defer { unlink(output) }
        let input = output + ".sql"
        defer { unlink(input) }
        try Data(sql.utf8).write(to: URL(fileURLWithPath: input))
        _ = try ChildProcess.measure("/usr/bin/sqlite3", ["-readonly", store], stdinPath: input, stdoutPath: output)
        let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map { $0.split(separator: "|", omittingEmptySubsequences: false).map(String.init) }
    }
}
