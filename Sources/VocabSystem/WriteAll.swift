import Glibc

/// Writes all of `bytes` to the open file `descriptor`, as many `write(2)` calls as it takes
/// (retrying when a signal interrupts one). Returns 0, or the `errno` of the write that failed.
@discardableResult
public func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32 {
    guard var base = bytes.baseAddress else { return 0 }
    var remaining = bytes.count
    while remaining > 0 {
        let written = write(descriptor, base, remaining)
        if written < 0 {
            if errno == EINTR { continue }
            return errno
        }
        remaining -= written
        base += written
    }
    return 0
}
