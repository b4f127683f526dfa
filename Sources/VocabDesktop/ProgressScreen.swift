import CGtk
import FoundationEssentials
import VocabCore
import VocabSessions

/// Progress: the report the session layer makes once for every front end, drawn with cairo —
/// what is due ahead, the days studied, true retention beside the scheduler's aim, where words
/// stand, words added, reviews by hour, answers and memory — for all books or one, over a span.
/// Each chart carries its title and summary for screen readers.
@MainActor
final class ProgressScreen {
    let root: Widget
    private let model: AppModel
    private let controls: Widget
    private var bookChoice: Widget
    private let spanChoice: Widget
    private var bookIds: [UUID?] = [nil]
    private var bookNames: [String] = []
    private let error: Widget
    private var charts: [String: (area: ChartArea?, title: Widget, summary: Widget)] = [:]
    private let retention: Widget
    private let answers: Widget
    /// A read is on its way; another asked meanwhile runs after it.
    private var loading = false, again = false

    static let spans = ProgressCharts.spans

    init(model: AppModel) {
        self.model = model
        bookChoice = UI.dropDown([tr("All books")], name: tr("Book"))
        spanChoice = UI.dropDown(Self.spans.map { tr("%d days", $0) }, name: tr("Days shown"))
        gtk_drop_down_set_selected(vocab_drop_down(spanChoice), guint(Self.spans.count - 1))
        let spacer = UI.box(false, spacing: 0)
        UI.expand(spacer, vertical: false)
        controls = UI.box(false, spacing: 8, [UI.label(tr("Progress"), style: "title-2"), spacer, bookChoice, spanChoice])
        error = UI.label("", style: "error", wrap: true)
        UI.setVisible(error, false)
        retention = gtk_grid_new()!
        gtk_grid_set_column_spacing(vocab_grid(retention), 12)
        gtk_grid_set_row_spacing(vocab_grid(retention), 4)
        answers = UI.label("", wrap: true)

        let flow = gtk_flow_box_new()!
        gtk_flow_box_set_selection_mode(vocab_flow_box(flow), GTK_SELECTION_NONE)
        gtk_flow_box_set_max_children_per_line(vocab_flow_box(flow), 2)
        gtk_flow_box_set_homogeneous(vocab_flow_box(flow), 0)
        gtk_flow_box_set_column_spacing(vocab_flow_box(flow), 12)
        gtk_flow_box_set_row_spacing(vocab_flow_box(flow), 12)
        let cards: [(String, String, Widget?)] = [
            ("due", tr("Due ahead"), nil), ("calendar", tr("Days studied"), nil), ("retention", tr("True retention"), retention),
            ("standing", tr("Where your words stand"), nil), ("added", tr("Words added"), nil), ("hours", tr("Reviews by hour"), nil),
            ("answers", tr("Answers"), answers), ("memory", tr("Memory"), nil),
        ]
        for (key, title, content) in cards {
            let heading = UI.label(title, style: "heading")
            let summary = UI.label("", style: "dim-label", wrap: true)
            gtk_label_set_max_width_chars(vocab_label(summary), 48)
            let area = content == nil ? ChartArea(height: key == "calendar" ? 154 : key == "standing" ? 24 : 110) : nil
            let body = [heading] + [area?.widget ?? content].compactMap { $0 } + [summary]
            let card = UI.box(true, spacing: 8, body)
            gtk_widget_add_css_class(card, "card")
            gtk_widget_set_size_request(card, 380, -1)
            for child in body {
                gtk_widget_set_margin_start(child, 14)
                gtk_widget_set_margin_end(child, 14)
            }
            gtk_widget_set_margin_top(heading, 12)
            gtk_widget_set_margin_bottom(summary, 12)
            gtk_flow_box_insert(vocab_flow_box(flow), card, -1)
            charts[key] = (area, heading, summary)
        }
        let page = UI.box(true, spacing: 12, [controls, error, flow])
        UI.margins(page, 16)
        root = UI.scrolled(page)

        on(spanChoice, "notify::selected", pointer: { [weak self] _ in self?.reload() })
        model.onChange { [weak self] change in
            guard let self, change.words || change.reviews || change.books, gtk_widget_get_mapped(self.root) != 0 else { return }
            self.reload()
        }
    }

    /// Reads the report again (off the main thread) for the book and span chosen, and draws it.
    func reload() {
        guard !loading else { again = true; return }
        loading = true
        let index = UI.selected(bookChoice)
        let bookId = index < bookIds.count ? bookIds[index] : nil
        let days = Self.spans[min(UI.selected(spanChoice), Self.spans.count - 1)]
        let clock = model.clock, day = model.studyDay
        model.readInBackground({ library -> (ProgressReport, [BookSummary]) in
            let summaries = try library.bookSummaries()
            let chosen = bookId.flatMap { id in summaries.contains { $0.book.id == id } ? [id] : nil }
            return (try ProgressService.report(in: library, books: chosen, days: days, now: clock.now(), studyDay: day), summaries)
        }) { [weak self] result in
            guard let self else { return }
            loading = false
            switch result {
            case .success(let (report, summaries)):
                UI.setVisible(error, false)
                offer(summaries)
                draw(report)
            case .failure(let failure):
                UI.setText(error, AppModel.message(failure))
                UI.setVisible(error, true)
            }
            if again { again = false; reload() }
        }
    }

    /// The books to choose from, as the store has them now (the choice kept when it still is one).
    private func offer(_ summaries: [BookSummary]) {
        let names = summaries.map(\.book.name)
        guard names != bookNames else { return }
        let previous = bookIds[min(UI.selected(bookChoice), bookIds.count - 1)]
        bookNames = names
        bookIds = [nil] + summaries.map(\.book.id)
        let replacement = UI.dropDown([tr("All books")] + names, name: tr("Book"))
        gtk_box_insert_child_after(vocab_box(controls), replacement, bookChoice)
        gtk_box_remove(vocab_box(controls), bookChoice)
        bookChoice = replacement
        if let previous, let index = bookIds.firstIndex(of: previous) {
            gtk_drop_down_set_selected(vocab_drop_down(bookChoice), guint(index))
        }
        on(bookChoice, "notify::selected", pointer: { [weak self] _ in self?.reload() })
    }

    private func draw(_ report: ProgressReport) {
        let due = report.dueAhead, days = report.calendar, words = report.standing, memory = report.memory
        let month = report.retention.first { $0.period == .month }?.all ?? PassTally()
        let added = report.recentlyAdded
        let hours = report.hours.map(\.total)
        let busiest = hours.indices.max { hours[$0] < hours[$1] } ?? 0
        show("due", .bars(due.days, labels: ProgressCharts.dueDayMarks.map { ($0, $0 == 0 ? tr("Today") : "+\($0)") }, colour: ChartArea.blue),
             tr("%d overdue, %d due today, %d this week; the busiest of the next 30 days has %d.",
                due.backlog, due.days.first ?? 0, due.thisWeek, due.days.max() ?? 0))
        show("calendar", .weeks(report.calendarCells),
             tr("%d reviews on %d of the last %d days; days in a row: %d (longest %d).",
                days.total, days.studiedDays, report.days, days.currentStreak, days.longestStreak))
        show("retention", nil, tr("This month %@ of reviews passed; the scheduler aims at %@.",
                                  Self.percent(month.rate), Self.percent(report.desiredRetention)))
        fillRetention(report)
        show("standing", .parts([(words.new, Colour.new), (words.learning, Colour.learning), (words.young, Colour.young),
                                 (words.mature, Colour.mature), (words.memorized, Colour.memorized)]),
             tr("%d new, %d learning, %d young, %d mature, %d memorised.", words.new, words.learning, words.young, words.mature, words.memorized))
        show("added", .bars(added, labels: [], colour: ChartArea.green),
             tr("%d words added in the last %d days.", added.reduce(0, +), added.count))
        show("hours", .bars(hours, labels: ProgressCharts.hourMarks.map { ($0, "\($0)") }, colour: ChartArea.blue),
             tr("%d reviews; most at %d h.", hours.reduce(0, +), busiest))
        UI.setText(answers, report.buttons.map { button in
            "\(Self.kindName(button.kind)): " + zip(Rating.allCases, button.counts).map { "\(StudyScreen.name($0)) \($1)" }.joined(separator: " · ")
        }.joined(separator: "\n"))
        show("answers", nil, "")
        show("memory", .bars(memory.retrievability, labels: ProgressCharts.recallMarks.map { ($0, "\($0 * 10)%") }, colour: ChartArea.purple),
             tr("Stability %@ days on average; difficulty %@; chance of recall now %@.",
                CFormat.string("%.1f", memory.meanStability), Self.percent(memory.meanDifficulty), Self.percent(memory.meanRetrievability)))
    }

    private func show(_ key: String, _ figure: ChartArea.Figure?, _ summary: String) {
        guard let chart = charts[key] else { return }
        UI.setText(chart.summary, summary)
        UI.setVisible(chart.summary, !summary.isEmpty)
        if let figure, let area = chart.area {
            area.figure = figure
            area.describe(title: String(cString: gtk_label_get_text(vocab_label(chart.title))), summary: summary)
        }
    }

    /// True retention as a table: young, mature and all, by span.
    private func fillRetention(_ report: ProgressReport) {
        while let child = gtk_widget_get_first_child(retention) { gtk_grid_remove(vocab_grid(retention), child) }
        func cell(_ text: String, _ column: Int, _ row: Int, style: String? = nil) {
            let label = UI.label(text, style: style, xalign: column == 0 ? 0 : 1)
            gtk_grid_attach(vocab_grid(retention), label, Int32(column), Int32(row), 1, 1)
        }
        for (column, span) in report.retention.enumerated() { cell(Self.periodName(span.period), column + 1, 0, style: "dim-label") }
        for (row, (name, tally)) in [(tr("Young"), \RetentionSpan.young), (tr("Mature"), \RetentionSpan.mature),
                                     (tr("All"), \RetentionSpan.all)].enumerated() {
            cell(name, 0, row + 1, style: "dim-label")
            for (column, span) in report.retention.enumerated() { cell(Self.percent(span[keyPath: tally].rate), column + 1, row + 1) }
        }
    }

    static func percent(_ share: Double?) -> String {
        share.map { CFormat.string("%.1f%%", $0 * 100) } ?? "–"
    }

    private static func periodName(_ period: RetentionSpan.Period) -> String {
        switch period {
        case .today: return tr("Today")
        case .yesterday: return tr("Yesterday")
        case .week: return tr("Week")
        case .month: return tr("Month")
        case .year: return tr("Year")
        }
    }

    private static func kindName(_ kind: ButtonTally.Kind) -> String {
        switch kind {
        case .learning: return tr("Learning")
        case .young: return tr("Young")
        case .mature: return tr("Mature")
        }
    }

    private enum Colour {
        static let new = ChartArea.Colour(red: 0.6, green: 0.76, blue: 0.96)
        static let learning = ChartArea.Colour(red: 0.96, green: 0.76, blue: 0.07)
        static let young = ChartArea.Colour(red: 0.34, green: 0.89, blue: 0.54)
        static let mature = ChartArea.Colour(red: 0.15, green: 0.64, blue: 0.41)
        static let memorized = ChartArea.Colour(red: 0.51, green: 0.24, blue: 0.61)
    }
}
