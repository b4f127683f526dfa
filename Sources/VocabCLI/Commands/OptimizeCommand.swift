import FoundationEssentials
import VocabCore
import VocabSessions

/// `vocab optimize`: FSRS-6 parameters fitted to the learner's own reviews.
enum OptimizeCommand {
    static let command = Command(spec: CommandSpec(
        name: "optimize", abstract: "Fit the study scheduler to your own reviews (FSRS-6 parameters).",
        options: [
            OptionSpec("book", short: "b", value: "BOOK", repeatable: true, help: "Only this book's reviews (default: all)."),
            OptionSpec("retention", value: "R", help: "The share of words you aim to recall when they come due, 0.85 to 0.97 (default: keep; 0.9 at first)."),
            OptionSpec("dry-run", help: "Show the figures; save nothing."),
            OptionSpec("reset", help: "Go back to the default parameters and a retention of 0.9."),
            OptionSpec("now", value: "TIME", help: "The time to record the change at (ISO 8601; default: now)."),
            .json,
        ],
        discussion: """
            Vocab schedules with FSRS-6. Its default parameters were fitted to millions of other people's reviews; \
            this fits them to yours, by the method of the reference optimiser (fsrs-rs, which Anki's Optimize runs), \
            and compares both on the same reviews: the log loss and the RMSE over bins of interval, review count and \
            lapses, as the FSRS benchmark measures them (lower is better). The fitted parameters are saved only if \
            they predict your reviews better than those in force; every word's schedule is then re-derived from its \
            log, and study, due, review and the game use them (on every device, after a sync). A review counts when \
            it came on a later day than the word's previous one; at least \(LearningOptimization.minimumReviews) are needed.
            """,
        examples: ["vocab optimize", "vocab optimize --book TOEIC --dry-run", "vocab optimize --retention 0.85", "vocab optimize --reset"]
    )) { arguments, context in
        let library = try context.library()
        let time = try context.now(arguments)
        let console = context.console
        let retention = try retentionValue(arguments)
        if arguments.flag("reset") {
            for option in ["book", "retention", "dry-run"] where arguments.flag(option) || arguments.value(option) != nil {
                throw UsageError.conflictingOptions("--reset", "--\(option)")
            }
            let rescheduled = try LearningOptimization.reset(library: library, now: time)
            if arguments.flag("json") {
                console.print(settingsJSON(try library.learningSettings(), extra: [("rescheduled", .int(Int64(rescheduled)))]).pretty)
            } else {
                console.print("Back to the default FSRS-6 parameters and a desired retention of 0.90 (\(plural(rescheduled, "word")) rescheduled).")
            }
            return
        }
        let bookIds = try StudyCommands.resolve(arguments.allValues("book"), library: library)
        let progress = arguments.flag("json") ? nil : ProgressLine("Fitting FSRS-6 to your reviews…", unit: "%", kind: .share, console: console)
        let report = try LearningOptimization.run(library: library, bookIds: bookIds, retention: retention, dryRun: arguments.flag("dry-run"),
                                                  now: time, progress: { progress?.update(Int($0 * 100)) })
        progress?.finish()
        if arguments.flag("json") {
            console.print(reportJSON(report).pretty)
        } else {
            printReport(report, dryRun: arguments.flag("dry-run"), console: console)
        }
    }

    private static func retentionValue(_ arguments: ParsedArguments) throws -> Double? {
        guard let text = arguments.value("retention") else { return nil }
        guard let value = Double(text), LearningSettings.retentionRange.contains(value) else {
            throw UsageError.invalidValue(option: "retention", value: text, expected: "a number from 0.85 to 0.97, such as 0.9")
        }
        return value
    }

    private static func printReport(_ report: OptimizationReport, dryRun: Bool, console: Console) {
        console.print("\(plural(report.reviews, "review")) of \(plural(report.words, "word")) to learn from.")
        var rows = [("", "log loss", "RMSE (bins)"), ("defaults", figure(report.defaults.logLoss), figure(report.defaults.rmseBins))]
        if let previous = report.previous { rows.append(("saved before", figure(previous.logLoss), figure(previous.rmseBins))) }
        if let fitted = report.fitted { rows.append(("fitted", figure(fitted.logLoss), figure(fitted.rmseBins))) }
        if report.reviews > 0 {
            for row in rows { console.print(row.0.rightPadded(14) + row.1.leftPadded(9) + row.2.leftPadded(13)) }
        }
        switch report.outcome {
        case .saved:
            console.print("Saved the fitted parameters: study, due, review and the game schedule with them now.")
        case .betterNotSaved:
            console.print("The fitted parameters predict your reviews better; nothing was saved (--dry-run).")
        case .notBetter:
            console.print("The fitted parameters predict your reviews no better: the ones in force stay.")
        case .tooFewReviews(let minimum):
            console.print("Too few reviews to fit on (\(report.reviews) of at least \(minimum), each on a later day than the word's previous one): "
                + (report.settings.parameters == nil ? "the default parameters stay." : "the saved parameters stay."))
        }
        let settings = report.settings
        let retention = CFormat.string("%.2f", settings.desiredRetention)
        if report.rescheduled > 0 || report.outcome == .saved {
            console.print("Desired retention \(retention); \(plural(report.rescheduled, "word")) rescheduled.")
        } else if !dryRun {
            console.print("Desired retention \(retention).")
        }
    }

    private static func figure(_ value: Double) -> String { CFormat.string("%.4f", value) }

    private static func evaluationJSON(_ evaluation: FSRSEvaluation, extra: [(String, JSONValue)] = []) -> JSONValue {
        .object([("logLoss", .double(evaluation.logLoss)), ("rmseBins", .double(evaluation.rmseBins))] + extra)
    }

    private static func settingsJSON(_ settings: LearningSettings, extra: [(String, JSONValue)] = []) -> JSONValue {
        .object([("parameters", .array(settings.effectiveParameters.map { .double($0) })),
                 ("optimized", .bool(settings.parameters != nil)),
                 ("desiredRetention", .double(settings.desiredRetention))] + extra)
    }

    private static func reportJSON(_ report: OptimizationReport) -> JSONValue {
        let outcome: String
        switch report.outcome {
        case .saved: outcome = "saved"
        case .betterNotSaved: outcome = "better-not-saved"
        case .notBetter: outcome = "not-better"
        case .tooFewReviews: outcome = "too-few-reviews"
        }
        var members: [(String, JSONValue)] = [
            ("outcome", .string(outcome)), ("reviews", .int(Int64(report.reviews))), ("words", .int(Int64(report.words))),
            ("minimumReviews", .int(Int64(LearningOptimization.minimumReviews))), ("defaults", evaluationJSON(report.defaults)),
        ]
        if let previous = report.previous { members.append(("savedBefore", evaluationJSON(previous))) }
        if let fitted = report.fitted, let parameters = report.fittedParameters {
            members.append(("fitted", evaluationJSON(fitted, extra: [("parameters", .array(parameters.map { .double($0) }))])))
        }
        members.append(("settings", settingsJSON(report.settings)))
        members.append(("rescheduled", .int(Int64(report.rescheduled))))
        return .object(members)
    }
}

private extension String {
    func leftPadded(_ width: Int) -> String { String(repeating: " ", count: max(0, width - count)) + self }
    func rightPadded(_ width: Int) -> String { self + String(repeating: " ", count: max(0, width - count)) }
}
