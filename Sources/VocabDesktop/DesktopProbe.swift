import CGtk
import Foundation

/// With VOCAB_DESKTOP_PROBE=1 the window measures itself for `vocab-bench` and quits: it prints
/// `first-frame-ms` (from the start of `main` to the first painted frame), `list-open-ms` (from
/// asking for the biggest book's word list to its first painted frame) and `peak-rss-kib`.
@MainActor
enum DesktopProbe {
    static let start = ContinuousClock.now

    static func run(window: Widget, shelf: ShelfScreen) {
        afterNextPaint(window) {
            report("first-frame-ms", milliseconds(since: start))
            let asked = ContinuousClock.now
            shelf.openBiggestBook {
                afterNextPaint(window) {
                    report("list-open-ms", milliseconds(since: asked))
                    report("peak-rss-kib", peakResidentKiB())
                    exit(0)
                }
            }
        }
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
