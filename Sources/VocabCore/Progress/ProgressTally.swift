import FoundationEssentials

/// Adds up a progress report from the store's rows, read once each: the review log in
/// (word, time) order, the schedules, and the dates words were added. Pure: the rows and the
/// clock come in as arguments, so a test can check every figure.
public struct ProgressTally: Sendable {
    public let grid: StudyDayGrid
    public let days: Int
    private let now: Timestamp
    private let scheduler: FSRSScheduler

    private var calendar: [Int]
    private var added: [Int]
    private var hours = [PassTally](repeating: PassTally(), count: 24)
    private var buttons = [[Int]](repeating: [0, 0, 0, 0], count: ButtonTally.Kind.allCases.count)
    /// Young and mature reviews passed and failed on each of the last year's days (0 today).
    private var retentionByDay: [(young: PassTally, mature: PassTally)]
    private var backlog = 0
    private var dueDays = [Int](repeating: 0, count: DueAhead.dayCount)
    private var dueWeeks = [Int](repeating: 0, count: DueAhead.weekCount)
    private var scheduled: [WordStanding]
    private var stability = [Int](repeating: 0, count: MemorySpread.stabilityEdges.count + 1)
    private var difficulty = [Int](repeating: 0, count: 10)
    private var retrievability = [Int](repeating: 0, count: 10)
    private var sums = (stability: 0.0, difficulty: 0.0, retrievability: 0.0, count: 0)
    private var previous: (word: Int64, at: Int64)?

    /// Words count as mature from this interval on, as in Anki.
    public static let matureDays: Int64 = 21
    private static let day: Int64 = 86_400_000

    /// `days` study days back from today (1 to `ProgressReport.maximumDays`); `bookCount`
    /// books, numbered from 0 in the rows.
    public init(now: Timestamp, studyDay: StudyDay, days: Int, scheduler: FSRSScheduler, bookCount: Int) {
        self.now = now
        self.scheduler = scheduler
        self.days = min(max(days, 1), ProgressReport.maximumDays)
        let back = max(self.days, RetentionSpan.Period.year.daysBack.first + 1)
        grid = StudyDayGrid(around: now, studyDay: studyDay, back: back, ahead: DueAhead.weekCount * 7)
        calendar = [Int](repeating: 0, count: self.days)
        added = [Int](repeating: 0, count: self.days)
        retentionByDay = Array(repeating: (PassTally(), PassTally()), count: RetentionSpan.Period.year.daysBack.first + 1)
        scheduled = [WordStanding](repeating: WordStanding(), count: bookCount)
    }

    /// One review; they must come in order of word, then time, with every earlier review of a
    /// word before it (a review's kind depends on the one before).
    public mutating func review(word: Int64, at time: Int64, rating: Int) {
        let before = previous?.word == word ? previous?.at : nil
        previous = (word, time)
        guard let day = grid.day(of: time), day <= 0, (1...4).contains(rating) else { return }
        let back = -day
        let kind: ButtonTally.Kind
        if let before, time - before >= Self.day {
            kind = time - before < Self.matureDays * Self.day ? .young : .mature
            if back < retentionByDay.count {
                if kind == .young { retentionByDay[back].young.add(rating) } else { retentionByDay[back].mature.add(rating) }
            }
        } else {
            kind = .learning
        }
        guard back < days else { return }
        calendar[days - 1 - back] += 1
        hours[grid.hour(of: time, day: day)].add(rating)
        switch kind {
        case .learning: buttons[0][rating - 1] += 1
        case .young: buttons[1][rating - 1] += 1
        case .mature: buttons[2][rating - 1] += 1
        }
    }

    /// Adds the reviews another tally of the same report counted (another part of the log,
    /// with no word in both).
    public mutating func add(reviewsOf other: ProgressTally) {
        for index in calendar.indices { calendar[index] += other.calendar[index] }
        for index in hours.indices { hours[index] = hours[index] + other.hours[index] }
        for kind in buttons.indices {
            for grade in buttons[kind].indices { buttons[kind][grade] += other.buttons[kind][grade] }
        }
        for index in retentionByDay.indices {
            retentionByDay[index] = (retentionByDay[index].young + other.retentionByDay[index].young,
                                     retentionByDay[index].mature + other.retentionByDay[index].mature)
        }
    }

    /// One reviewed word's schedule. A memorised word is counted as memorised (from the book's
    /// counts), but is due and remembered like any other.
    public mutating func schedule(book: Int, memorized: Bool, state: Int, stability wordStability: Double,
                                  difficulty wordDifficulty: Double, due: Int64, lastReview: Int64) {
        if !memorized, scheduled.indices.contains(book) {
            if state == MemoryState.review.rawValue {
                if due - lastReview < Self.matureDays * Self.day { scheduled[book].young += 1 } else { scheduled[book].mature += 1 }
            } else {
                scheduled[book].learning += 1
            }
        }
        if due < grid.starts[grid.todayIndex] {
            backlog += 1
        } else if let day = grid.day(of: due) {
            if day < DueAhead.dayCount { dueDays[day] += 1 }
            if day / 7 < DueAhead.weekCount { dueWeeks[day / 7] += 1 }
        }
        let bin = MemorySpread.stabilityEdges.firstIndex { wordStability < $0 } ?? MemorySpread.stabilityEdges.count
        stability[bin] += 1
        let percent = min(max((wordDifficulty - 1) / 9, 0), 1)
        difficulty[min(Int(percent * 10), 9)] += 1
        let schedule = Schedule(state: MemoryState(rawValue: state) ?? .review, step: nil, stability: wordStability,
                                difficulty: wordDifficulty, due: Timestamp(milliseconds: due),
                                lastReview: Timestamp(milliseconds: lastReview), reviews: 0, lapses: 0)
        let recall = min(max(scheduler.retrievability(schedule, at: now), 0), 1)
        retrievability[min(Int(recall * 10), 9)] += 1
        sums = (sums.stability + wordStability, sums.difficulty + percent, sums.retrievability + recall, sums.count + 1)
    }

    /// A word added at `date` (the word's own date).
    public mutating func wordAdded(at date: Int64) {
        guard let day = grid.day(of: date), day <= 0, -day < days else { return }
        added[days - 1 + day] += 1
    }

    /// True retention over each span, summed from the days'.
    private func retention() -> [RetentionSpan] {
        RetentionSpan.Period.allCases.map { period in
            let days = retentionByDay[period.daysBack.last...period.daysBack.first]
            return RetentionSpan(period: period, young: days.reduce(PassTally()) { $0 + $1.young },
                                 mature: days.reduce(PassTally()) { $0 + $1.mature })
        }
    }

    /// The report, with each book's word and memorised counts (in the books' numbering) and
    /// the retention the scheduler aims at.
    public func report(books: [(id: UUID, name: String, words: Int, memorized: Int)]) -> ProgressReport {
        let standings = books.enumerated().map { index, book -> BookStanding in
            var standing = scheduled.indices.contains(index) ? scheduled[index] : WordStanding()
            standing.memorized = book.memorized
            standing.new = max(0, book.words - book.memorized - standing.learning - standing.young - standing.mature)
            return BookStanding(bookId: book.id, name: book.name, standing: standing)
        }
        let count = Double(max(sums.count, 1))
        return ProgressReport(
            now: now, todayStart: grid.todayStart, days: days,
            dueAhead: DueAhead(backlog: backlog, days: dueDays, weeks: dueWeeks),
            calendar: StudyCalendar(reviews: calendar), retention: retention(),
            desiredRetention: scheduler.desiredRetention,
            standing: standings.reduce(WordStanding()) { $0 + $1.standing }, books: standings,
            added: added, hours: hours,
            buttons: ButtonTally.Kind.allCases.enumerated().map { ButtonTally(kind: $1, counts: buttons[$0]) },
            memory: MemorySpread(stability: stability, difficulty: difficulty, retrievability: retrievability,
                                 meanStability: sums.stability / count, meanDifficulty: sums.difficulty / count,
                                 meanRetrievability: sums.retrievability / count))
    }
}
