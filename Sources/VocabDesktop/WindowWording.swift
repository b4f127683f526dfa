import Foundation
import VocabCore
import VocabSessions
import VocabCloudAPI
import VocabWording

/// The window's words, in the user's language: the shared `Wording` (the web app's too) over
/// the window's catalogue.
enum WindowWording {
    private static var wording: Wording { Wording(catalog: Localization.catalog) }

    /// "now", "in 10 minutes", "in 3 days".
    static func due(_ interval: DueInterval) -> String { wording.due(interval) }

    /// A rating button's interval: "10m", "3d", "1.5y" (Korean: "10분", "3일", "1.5년").
    static func button(_ interval: ButtonInterval) -> String { wording.button(interval) }

    /// "Next review in 3 days." or "No reviews scheduled."
    static func nextReview(_ due: Timestamp?, from time: Timestamp) -> String { wording.nextReview(due, from: time) }

    /// What to tell a player whose answer was not one.
    static func expected(_ answer: ExpectedAnswer) -> String { wording.expected(answer) }

    /// A word or book field's name as the form labels it.
    static func field(_ name: String) -> String { wording.field(name) }

    /// An error in the window's words.
    static func message(for error: Error) -> String { wording.message(for: error) }
}
