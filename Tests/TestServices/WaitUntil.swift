import Foundation

/// Whether `condition` came true within 30 s (checked every 10 ms): tests wait for what they
/// expect instead of sleeping and hoping.
public func waitUntil(_ condition: () -> Bool) -> Bool {
    for _ in 0..<3_000 {
        if condition() { return true }
        usleep(10_000)
    }
    return false
}
