import CGtk
import Foundation
import VocabCore
import VocabSessions

/// `vocab-desktop`: Vocab in a GTK 4 window, on the same store and login as `vocab`.
@MainActor
public enum DesktopApp {
    /// Runs the application; returns its exit status.
    public static func run(arguments: [String], environment: [String: String]) -> Int32 {
        _ = DesktopProbe.start
        setlocale(LC_ALL, "")
        Localization.load(environment: environment, executable: CommandLine.arguments.first.map(resolvedPath) ?? "")
        adw_init()
        MainQueueBridge.install()
        // Non-unique: each run is its own window on its own store (VOCAB_HOME), as tests need.
        let app = adw_application_new("org.vocab.Desktop", GApplicationFlags(rawValue: 1 << 5))!
        on(UnsafeMutableRawPointer(app), "activate") {
            let window = MainWindow(application: app, environment: environment)
            window.present()
            windows.append(window)
        }
        var argv = [strdup(arguments.first ?? "vocab-desktop")]
        defer { argv.forEach { free($0) } }
        return g_application_run(vocab_g_application(UnsafeMutableRawPointer(app)), 1, &argv)
    }

    /// Keeps the windows' Swift objects alive while GTK shows them.
    private static var windows: [MainWindow] = []

    private static func resolvedPath(_ path: String) -> String {
        if path.contains("/") { return (path as NSString).standardizingPath }
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
        return folders.map { "\($0)/\(path)" }.first { FileManager.default.isExecutableFile(atPath: $0) } ?? path
    }
}
