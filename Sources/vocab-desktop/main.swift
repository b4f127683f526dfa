import Foundation
import VocabDesktop

// The GTK 4 window of Vocab: see VocabDesktop.DesktopApp.
let status = MainActor.assumeIsolated {
    DesktopApp.run(arguments: CommandLine.arguments, environment: ProcessInfo.processInfo.environment)
}
exit(status)
