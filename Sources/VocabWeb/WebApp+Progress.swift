import FoundationEssentials
import VocabCloudAPI
import VocabCore
import VocabSessions

/// Progress: the report the terminal's `stats --json` prints, for the page to draw.
extension WebApp {
    /// `GET /api/progress?book=ID&days=N`: the whole store or one book, over N study days
    /// (`ProgressReport.dayRange`, which `ProgressService` holds it to; the default without).
    func progress(_ query: [String: String]) throws -> HTTPResponse {
        let bookIds = try query["book"].map { [try uuid($0)] }
        var days = ProgressReport.defaultDays
        if let text = query["days"] {
            guard let value = Int(text) else { throw Refusal.wrongKind("days") }
            days = value
        }
        let now = clock.now(), day = studyDay
        let report: ProgressReport
        do {
            report = try pool.read { library in try ProgressService.report(in: library, books: bookIds, days: days, now: now, studyDay: day) }
        } catch let error as VocabError where error == .daysOutOfRange(days, ProgressReport.dayRange) {
            throw WebProblem(status: 422, cause: error, field: "days")  // the session's refusal, on the page's field
        }
        return HTTPResponse(status: 200, headers: [("Content-Type", "application/json; charset=utf-8"), ("Cache-Control", "no-store")],
                            body: Array(report.json.compact.utf8))
    }
}
