/// A learner's user name on the cloud.
public enum UserName {
    /// Whether `name` can be a learner's user name: a letter, then letters, digits and
    /// underscores, 63 at most, and not `vd_…` (the names devices had). The one check of every
    /// layer that takes a user name (the administrator's, a login's, a sign-in's).
    public static func isValid(_ name: String) -> Bool {
        name.wholeMatch(of: #/[A-Za-z][A-Za-z0-9_]{0,62}/#) != nil && !name.hasPrefix("vd_")
    }
}
