import Glibc

/// This process's bound on open files: every socket is one, so a server of many connections
/// (and a load that makes them) needs more than the usual 1,024.
public enum OpenFiles {
    /// Raises the soft bound to `wanted` (at most the hard bound; never lowers it); returns the
    /// bound now.
    @discardableResult
    public static func raiseLimit(to wanted: Int) -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return wanted }
        if limit.rlim_cur < rlim_t(wanted) {
            limit.rlim_cur = min(rlim_t(wanted), limit.rlim_max)
            _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
            _ = getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        }
        return Int(clamping: limit.rlim_cur)
    }
}
