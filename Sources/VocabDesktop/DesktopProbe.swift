import CGtk
import VocabSessions
import Foundation

/// With VOCAB_DESKTOP_PROBE=1 the window measures itself for `vocab-bench` and quits: it prints
/// `first-frame-ms` (from the start of `main` to the first painted frame), `list-open-ms` (from
/// asking for the biggest book's word list to its first painted frame) and `peak-rss-kib`; with
/// VOCAB_DESKTOP_PROBE_IMPORT=FILE it then (half a second later, the list settled) imports FILE
/// the way the window does (on its worker) while drawing every frame, and prints `import-ms`,
/// `longest-frame-gap-ms` (the longest time between two painted frames while the import ran)
/// `late-frames` (gaps over 25 ms: a frame missed at 60 Hz) and `longest-stall-ms` (the longest
/// time the main thread was busy, painting included: a 2 ms timer's lateness). With
/// VOCAB_DESKTOP_PROBE_OUTSIDE=PROGRAM it instead runs `PROGRAM word add` (another process on
/// the same store) 50 times, one after the other, and prints how many of those words the open
/// list showed within 5 s (`outside-seen`), and the median and worst time from the command's
/// start to the painted frame that shows it (`outside-median-ms`, `outside-worst-ms`).
@MainActor
enum DesktopProbe {
    static let start = ContinuousClock.now

    static func run(window: Widget, shelf: ShelfScreen, model: AppModel) {
        afterNextPaint(window) {
            report("first-frame-ms", milliseconds(since: start))
            let asked = ContinuousClock.now
            shelf.openBiggestBook {
                afterNextPaint(window) {
                    report("list-open-ms", milliseconds(since: asked))
                    report("peak-rss-kib", peakResidentKiB())
                    if let program = ProcessInfo.processInfo.environment["VOCAB_DESKTOP_PROBE_OUTSIDE"] {
                        return addFromOutside(program, times: 50, window: window, shelf: shelf)
                    }
                    guard let file = ProcessInfo.processInfo.environment["VOCAB_DESKTOP_PROBE_IMPORT"] else { exit(0) }
                    every(milliseconds: 500) {
                        importWhileDrawing(file, window: window, model: model)
                        return false
                    }
                }
            }
        }
    }

    /// Imports `file` into a new book on the model's worker while the window paints every
    /// frame; reports the import's time and the longest gap between painted frames meanwhile.
    private static func importWhileDrawing(_ file: String, window: Widget, model: AppModel) {
        guard let clock = gtk_widget_get_frame_clock(window) else { exit(2) }
        var last = ContinuousClock.now, longest = Duration.zero, importing = true, late = 0
        on(UnsafeMutableRawPointer(clock), "after-paint") {
            guard importing else { return }
            let now = ContinuousClock.now
            longest = max(longest, now - last)
            if now - last > .milliseconds(25) { late += 1 }
            last = now
        }
        gdk_frame_clock_begin_updating(clock)  // a frame every refresh, as an animation has
        // The main thread's longest stall: a 2 ms timer runs late by as long as the thread was
        // busy (painting included) — the time nothing the user does could be answered.
        var lastTick = ContinuousClock.now, stall = Duration.zero
        every(milliseconds: 2) {
            let now = ContinuousClock.now
            stall = max(stall, now - lastTick - .milliseconds(2))
            lastTick = now
            return importing
        }
        let began = ContinuousClock.now, now = model.clock.now()
        model.background({ library in
            try TransferService.importFile(file, format: .csv, into: library, defaultBook: "Probe", skipInvalid: false, now: now)
        }) { result in
            importing = false
            if case .failure(let error) = result { FileHandle.standardError.write(Data("probe: \(error)\n".utf8)); exit(3) }
            let elapsed = milliseconds(since: began)
            report("import-ms", elapsed)
            report("longest-frame-gap-ms", Int(longest.components.seconds * 1000 + longest.components.attoseconds / 1_000_000_000_000_000))
            report("late-frames", late)
            report("longest-stall-ms", Int(stall.components.seconds * 1000 + stall.components.attoseconds / 1_000_000_000_000_000))
            exit(0)
        }
    }

    /// Adds `times` words to the open book through `program` (another process), one at a time,
    /// each once the list showed the one before (or 5 s passed); reports what it saw, then quits.
    private static func addFromOutside(_ program: String, times: Int, window: Widget, shelf: ShelfScreen) {
        guard let list = shelf.wordList, let book = shelf.openBook?.name else { exit(4) }
        var delays: [Int] = [], round = 0
        func next() {
            guard round < times else {
                let sorted = delays.sorted()
                report("outside-seen", delays.count)
                report("outside-median-ms", sorted.isEmpty ? 0 : sorted[sorted.count / 2])
                report("outside-worst-ms", sorted.last ?? 0)
                exit(0)
            }
            round += 1
            let expected = list.shownCount + 1, started = ContinuousClock.now, thisRound = round
            var finished = false
            func end(seen: Bool) {
                guard !finished else { return }
                finished = true
                list.onApplied = nil
                if seen { delays.append(milliseconds(since: started)) }
                next()
            }
            list.onApplied = {
                guard list.shownCount >= expected else { return }
                afterNextPaint(window) { end(seen: true) }
            }
            every(milliseconds: 5_000) {
                if round == thisRound { end(seen: false) }
                return false
            }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: program)
            process.arguments = ["word", "add", "outside-\(round)", "--book", book, "--definition", "added by another process"]
            process.standardOutput = FileHandle.nullDevice
            do { try process.run() } catch { FileHandle.standardError.write(Data("probe: \(error)\n".utf8)); exit(5) }
        }
        next()
    }

    private static func afterNextPaint(_ widget: Widget, _ then: @escaping @MainActor () -> Void) {
        // The window's frame clock exists once it is realised; wait for that on an idle tick.
        every(milliseconds: 1) {
            guard let clock = gtk_widget_get_frame_clock(widget) else { return true }
            var done = false
            on(UnsafeMutableRawPointer(clock), "after-paint") {
                guard !done else { return }
                done = true
                then()
            }
            gtk_widget_queue_draw(widget)
            return false
        }
    }

    private static func milliseconds(since start: ContinuousClock.Instant) -> Int {
        let elapsed = ContinuousClock.now - start
        return Int(elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000)
    }

    private static func peakResidentKiB() -> Int {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }

    private static func report(_ name: String, _ value: Int) {
        FileHandle.standardOutput.write(Data("\(name) \(value)\n".utf8))
    }
}
