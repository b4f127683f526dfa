import FoundationEssentials

/// A learner's progress, for the whole store or some books, over a span of study days: what
/// is due ahead, the days studied, true retention, where the words stand, and their memory.
/// Every day here is a study day (DESIGN.md §10: the 4 a.m. local boundary study uses).
/// Built once by the session layer; each front end only draws it.
public struct ProgressReport: Equatable, Sendable {
    /// The time the report is of, and the start of its study day.
    public var now: Timestamp
    public var todayStart: Timestamp
    /// How many study days the calendar, words added, hours and buttons cover (today last).
    public var days: Int
    public var dueAhead: DueAhead
    public var calendar: StudyCalendar
    /// Today, yesterday, the last 7, 30 and 365 days.
    public var retention: [RetentionSpan]
    /// The retention the scheduler aims at (0 to 1).
    public var desiredRetention: Double
    /// Where the words stand, overall and for each book in the report.
    public var standing: WordStanding
    public var books: [BookStanding]
    /// Words added on each of the last `days` study days, oldest first.
    public var added: [Int]
    /// Reviews in the span by the local hour they were made in (0 to 23).
    public var hours: [PassTally]
    /// The grades given in the span, for words learning (a first review, or again the same
    /// day), young and mature.
    public var buttons: [ButtonTally]
    public var memory: MemorySpread

    public init(now: Timestamp, todayStart: Timestamp, days: Int, dueAhead: DueAhead, calendar: StudyCalendar,
                retention: [RetentionSpan], desiredRetention: Double, standing: WordStanding, books: [BookStanding],
                added: [Int], hours: [PassTally], buttons: [ButtonTally], memory: MemorySpread) {
        self.now = now
        self.todayStart = todayStart
        self.days = days
        self.dueAhead = dueAhead
        self.calendar = calendar
        self.retention = retention
        self.desiredRetention = desiredRetention
        self.standing = standing
        self.books = books
        self.added = added
        self.hours = hours
        self.buttons = buttons
        self.memory = memory
    }

    /// The longest span a report covers, and the one it covers when none is asked for.
    public static let maximumDays = 3_650
    public static let defaultDays = 365
    /// The spans a report may cover (`ProgressService` refuses others).
    public static let dayRange = 1...maximumDays
}

/// Words due on each coming study day and week.
public struct DueAhead: Equatable, Sendable {
    /// Due before today's start and not yet reviewed.
    public var backlog: Int
    /// Due on today and each of the 29 study days after it.
    public var days: [Int]
    /// Due in each of the 52 weeks from today's start (the first holds today and the next six days).
    public var weeks: [Int]

    public static let dayCount = 30
    public static let weekCount = 52

    public init(backlog: Int, days: [Int], weeks: [Int]) {
        self.backlog = backlog
        self.days = days
        self.weeks = weeks
    }

    /// Due this week: the backlog and the next seven study days.
    public var thisWeek: Int { backlog + days.prefix(7).reduce(0, +) }
}

/// Reviews on each study day of the span, and the streaks of days studied.
public struct StudyCalendar: Equatable, Sendable {
    /// Reviews on each study day, oldest first; the last is today.
    public var reviews: [Int]
    public var studiedDays: Int
    /// Days studied in a row up to today (or up to yesterday, while today is not studied yet).
    public var currentStreak: Int
    public var longestStreak: Int

    public init(reviews: [Int]) {
        self.reviews = reviews
        studiedDays = reviews.filter { $0 > 0 }.count
        var longest = 0, run = 0
        for count in reviews {
            run = count > 0 ? run + 1 : 0
            longest = max(longest, run)
        }
        longestStreak = longest
        let past = reviews.last == 0 ? reviews.dropLast() : reviews[...]
        currentStreak = past.reversed().prefix { $0 > 0 }.count
    }

    public var total: Int { reviews.reduce(0, +) }
    /// Reviews per day studied (0 when none).
    public var averagePerStudiedDay: Double { studiedDays == 0 ? 0 : Double(total) / Double(studiedDays) }
}

/// How many reviews passed (hard, good or easy) and failed (again).
public struct PassTally: Equatable, Sendable {
    public var passed = 0
    public var failed = 0

    public init(passed: Int = 0, failed: Int = 0) {
        self.passed = passed
        self.failed = failed
    }

    public var total: Int { passed + failed }
    /// The share passed, nil with no reviews.
    public var rate: Double? { total == 0 ? nil : Double(passed) / Double(total) }

    public mutating func add(_ rating: Int) {
        if rating == Rating.again.rawValue { failed += 1 } else { passed += 1 }
    }

    public static func + (lhs: PassTally, rhs: PassTally) -> PassTally {
        PassTally(passed: lhs.passed + rhs.passed, failed: lhs.failed + rhs.failed)
    }
}

/// True retention over one span: reviews of words seen on an earlier day, young (interval
/// under 21 days) and mature.
public struct RetentionSpan: Equatable, Sendable {
    public enum Period: String, CaseIterable, Sendable {
        case today, yesterday, week, month, year

        /// The study days it covers, counted back from today: (first, last) with 0 = today.
        public var daysBack: (first: Int, last: Int) {
            switch self {
            case .today: return (0, 0)
            case .yesterday: return (1, 1)
            case .week: return (6, 0)
            case .month: return (29, 0)
            case .year: return (364, 0)
            }
        }
    }

    public var period: Period
    public var young: PassTally
    public var mature: PassTally

    public init(period: Period, young: PassTally = PassTally(), mature: PassTally = PassTally()) {
        self.period = period
        self.young = young
        self.mature = mature
    }

    public var all: PassTally { young + mature }
}

/// Where words stand: new (never reviewed), learning (in learning or relearning steps), young
/// (an interval under 21 days), mature, and memorised (set aside by the learner).
public struct WordStanding: Equatable, Sendable {
    public var new = 0
    public var learning = 0
    public var young = 0
    public var mature = 0
    public var memorized = 0

    public init(new: Int = 0, learning: Int = 0, young: Int = 0, mature: Int = 0, memorized: Int = 0) {
        self.new = new
        self.learning = learning
        self.young = young
        self.mature = mature
        self.memorized = memorized
    }

    public var total: Int { new + learning + young + mature + memorized }

    public static func + (lhs: WordStanding, rhs: WordStanding) -> WordStanding {
        WordStanding(new: lhs.new + rhs.new, learning: lhs.learning + rhs.learning, young: lhs.young + rhs.young,
                     mature: lhs.mature + rhs.mature, memorized: lhs.memorized + rhs.memorized)
    }
}

/// One book's standing.
public struct BookStanding: Equatable, Sendable {
    public var bookId: UUID
    public var name: String
    public var standing: WordStanding

    public init(bookId: UUID, name: String, standing: WordStanding) {
        self.bookId = bookId
        self.name = name
        self.standing = standing
    }
}

/// The grades given to one kind of word.
public struct ButtonTally: Equatable, Sendable {
    public enum Kind: String, CaseIterable, Sendable { case learning, young, mature }

    public var kind: Kind
    /// Again, hard, good, easy.
    public var counts: [Int]

    public init(kind: Kind, counts: [Int] = [0, 0, 0, 0]) {
        self.kind = kind
        self.counts = counts
    }
}

/// The FSRS memory of the reviewed words: stability, difficulty, and retrievability now, each
/// as counts over fixed bins.
public struct MemorySpread: Equatable, Sendable {
    /// Stability in days: under 1, 1–3, 3–7, 7–14, 14–30, 30–90, 90–180, 180–365, a year or more.
    public var stability: [Int]
    /// Difficulty as 0–100% (FSRS's 1–10), in tenths.
    public var difficulty: [Int]
    /// The chance of recall now, in tenths (0–10% … 90–100%).
    public var retrievability: [Int]
    /// Means over the reviewed words (0 when none).
    public var meanStability: Double
    public var meanDifficulty: Double
    public var meanRetrievability: Double

    /// The upper edges of the stability bins, in days (the last bin has none).
    public static let stabilityEdges: [Double] = [1, 3, 7, 14, 30, 90, 180, 365]

    public init(stability: [Int], difficulty: [Int], retrievability: [Int],
                meanStability: Double, meanDifficulty: Double, meanRetrievability: Double) {
        self.stability = stability
        self.difficulty = difficulty
        self.retrievability = retrievability
        self.meanStability = meanStability
        self.meanDifficulty = meanDifficulty
        self.meanRetrievability = meanRetrievability
    }
}
